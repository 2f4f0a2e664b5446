package dev.laneway.channels.discord;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import net.dv8tion.jda.api.JDA;
import net.dv8tion.jda.api.exceptions.RateLimitedException;
import net.dv8tion.jda.api.requests.RestAction;
import net.dv8tion.jda.api.requests.Route;
import net.dv8tion.jda.api.utils.data.DataArray;
import net.dv8tion.jda.api.utils.data.DataObject;
import net.dv8tion.jda.internal.requests.RestActionImpl;

/**
 * Sends to a Discord channel known only by its id (docs/behaviour.md §17, "Ingress"): a guild channel
 * or thread whose shard this instance does not hold is not in JDA's cache, and JDA makes message
 * actions only from cached channels. Discord's REST API needs no gateway connection, so these calls
 * go through a client's requester directly (JDA's {@code RestActionImpl} with the public
 * {@link Route}s; D222): the same rate limiter, retries, timeouts and errors as JDA's own message
 * actions, the same JSON JDA sends (no mention parsed, the replied user pinged only when asked).
 * Stateless: any thread may call.
 */
final class ChannelRest {

    private ChannelRest() {
    }

    /** Posts {@code text} in channel {@code channelId}, replying to {@code replyTo} if it is a message id; the new message's id. */
    static String post(JDA client, String channelId, String text, String replyTo, boolean ping, Duration timeout) {
        DataObject body = DataObject.empty().put("content", text).put("allowed_mentions", noMentions(ping));
        if (Addresses.isSnowflake(replyTo)) {
            body.put("message_reference", DataObject.empty().put("message_id", replyTo).put("channel_id", channelId)
                    .put("fail_if_not_exists", false));
        }
        return new RestActionImpl<String>(client, Route.Messages.SEND_MESSAGE.compile(channelId), body,
                (response, request) -> response.getObject().getString("id"))
                .timeout(timeout.toMillis(), TimeUnit.MILLISECONDS).complete();
    }

    /** Replaces the text of the bot's message {@code messageId} in channel {@code channelId}. */
    static void edit(JDA client, String channelId, String messageId, String text, Duration timeout) {
        DataObject body = DataObject.empty().put("content", text).put("allowed_mentions", noMentions(false));
        new RestActionImpl<Void>(client, Route.Messages.EDIT_MESSAGE.compile(channelId, messageId), body)
                .timeout(timeout.toMillis(), TimeUnit.MILLISECONDS).complete();
    }

    /** Adds ({@code add}) or removes the bot's own reaction {@code emoji} (a Unicode emoji) on a message. */
    static void react(JDA client, String channelId, String messageId, String emoji, boolean add, Duration timeout) {
        String code = URLEncoder.encode(emoji, StandardCharsets.UTF_8);
        Route route = add ? Route.Messages.ADD_REACTION : Route.Messages.REMOVE_REACTION;
        failFast(new RestActionImpl<Void>(client, route.compile(channelId, messageId, code, "@me")), timeout);
    }

    /**
     * Runs a receipt's call without waiting out a rate limit (D231): a 429, or a bucket JDA knows is
     * spent, fails it at once ({@code complete(false)}), as does no answer within {@code timeout}.
     */
    static void failFast(RestAction<?> action, Duration timeout) {
        try {
            action.timeout(timeout.toMillis(), TimeUnit.MILLISECONDS).complete(false);
        } catch (RateLimitedException e) {
            throw new IllegalStateException("Discord rate-limited the reaction (retry after "
                    + e.getRetryAfter() + " ms); it is given up");
        }
    }

    static void typing(JDA client, String channelId, Duration timeout) {
        new RestActionImpl<Void>(client, Route.Channels.SEND_TYPING.compile(channelId))
                .timeout(timeout.toMillis(), TimeUnit.MILLISECONDS).complete();
    }

    private static DataObject noMentions(boolean pingRepliedUser) {
        return DataObject.empty().put("parse", DataArray.empty()).put("replied_user", pingRepliedUser);
    }
}
