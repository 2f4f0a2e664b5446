package dev.laneway.channels.slack;

import java.util.Objects;

/**
 * Who the bot is in the workspace, from {@code auth.test} with the bot token.
 *
 * @param userId the bot user's id ({@code U...}); mentions look like {@code <@userId>}
 * @param botId  the bot id ({@code B...}) carried by messages the bot posts, or null
 * @param teamId the workspace id, or null
 */
record BotIdentity(String userId, String botId, String teamId) {

    BotIdentity {
        Objects.requireNonNull(userId, "userId");
    }

    /** Whether a message from {@code user} / {@code bot} was posted by this bot. */
    boolean isSelf(String user, String bot) {
        return userId.equals(user) || (botId != null && botId.equals(bot));
    }

    String mentionToken() {
        return "<@" + userId;
    }
}
