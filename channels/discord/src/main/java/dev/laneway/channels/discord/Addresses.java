package dev.laneway.channels.discord;

import java.util.Optional;

/**
 * How Discord places are written into Laneway's string ids.
 *
 * <ul>
 *   <li>A DM's chat id is {@code dm:<userId>}, not the DM channel's id: JDA keeps only the ten most
 *       recently used DM channels cached, and a route must still be answerable after that (or
 *       after a restart). Sending opens the DM by user id, which Discord answers from its own state.
 *   <li>A guild channel's chat id is its channel id; a thread's chat id is its parent channel's id
 *       and its thread id the thread's id (so {@code session.groupScope: thread}, the default, makes
 *       a thread its own session and {@code chat} folds threads into their channel).
 *   <li>A slash command has no message id; its platform message id (and so its route's reply-to
 *       id) is {@code interaction:<interactionId>}, which tells {@code send} to answer through the
 *       interaction.
 * </ul>
 */
final class Addresses {

    static final String DM_PREFIX = "dm:";
    static final String INTERACTION_PREFIX = "interaction:";

    private Addresses() {
    }

    static String dmChat(String userId) {
        return DM_PREFIX + userId;
    }

    /** The user id of a DM chat id, or empty for a guild channel id. */
    static Optional<String> dmUser(String chatId) {
        return chatId.startsWith(DM_PREFIX) ? Optional.of(chatId.substring(DM_PREFIX.length())) : Optional.empty();
    }

    static String interactionMessageId(String interactionId) {
        return INTERACTION_PREFIX + interactionId;
    }

    /** The interaction id a reply-to id names, or empty for a message id (or null). */
    static Optional<String> interactionId(String replyTo) {
        return replyTo != null && replyTo.startsWith(INTERACTION_PREFIX)
                ? Optional.of(replyTo.substring(INTERACTION_PREFIX.length()))
                : Optional.empty();
    }

    /** Whether {@code id} can be a Discord message id (a snowflake: digits only). */
    static boolean isSnowflake(String id) {
        if (id == null || id.isEmpty() || id.length() > 20) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            if (!Character.isDigit(id.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
