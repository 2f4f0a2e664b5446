package dev.laneway.channels.slack;

import dev.laneway.core.Route;
import dev.laneway.core.channel.ExpiringKeys;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The 👀 progress reaction. Slack bots have no typing indicator, so every message the gateway
 * accepts gets 👀 ({@link #accepted}), and loses it when that message has ended, after its answer
 * was handed to Slack ({@link #settled}): answered, collected into another turn, dropped by the
 * cap, cleared by {@code /stop}. The gateway calls both through the chat's outbox sequence, so
 * the removal never overtakes the add or the answer. Only what was added is removed: a message
 * whose 👀 could not be added (rate limited, no scope) gets no {@code reactions.remove}, which
 * would only fail again and spend the rate limit. The ones that failed are remembered rather than
 * the ones added, so a message accepted before a restart (its 👀 added by the previous process)
 * still loses it. Ids that are not message timestamps (slash commands) are left alone. A failed
 * call is logged (once per method and error at warn) and otherwise ignored: a reaction is a
 * courtesy, never worth holding up a reply.
 *
 * <p>Concurrency: the set of errors already logged and the {@link ExpiringKeys} guard themselves.
 */
final class ProgressReactions {

    static final String EMOJI = "eyes";
    /** A message ends well within a day; after that a failed add is forgotten. */
    private static final Duration REMEMBER_FAILED_ADDS = Duration.ofHours(24);
    private static final Logger log = LoggerFactory.getLogger(ProgressReactions.class);
    private static final Pattern TS = Pattern.compile("\\d{1,12}\\.\\d{1,9}");

    /** The Slack calls; each returns Slack's error code, or null when done. */
    interface Api {
        String add(String channel, String ts);

        String remove(String channel, String ts);
    }

    private final Api api;
    private final Set<String> warned = ConcurrentHashMap.newKeySet();           // method:error already logged
    private final ExpiringKeys notAdded;                                         // channel:ts whose 👀 add failed

    ProgressReactions(InstantSource clock, Api api) {
        this.api = api;
        this.notAdded = new ExpiringKeys(clock, REMEMBER_FAILED_ADDS, 50_000);
    }

    /** Reacts with 👀 to the message the route replies to. */
    void accepted(Route route) {
        String ts = route.replyToMessageId();
        if (isMessageTs(ts)) {
            String error = api.add(route.chatId(), ts);
            if (error != null) {
                notAdded.add(key(route.chatId(), ts));
                report("reactions.add", error);
            }
        }
    }

    /** Removes the 👀 from the message the route replies to, unless it was never added. */
    void settled(Route route) {
        String ts = route.replyToMessageId();
        if (isMessageTs(ts) && !notAdded.remove(key(route.chatId(), ts))) {
            report("reactions.remove", api.remove(route.chatId(), ts));
        }
    }

    private static String key(String channel, String ts) {
        return channel + ':' + ts;
    }

    private void report(String method, String error) {
        if (error == null) {
            return;
        }
        if (warned.add(method + ':' + error)) {
            log.warn("Slack {} failed: {} (the progress reaction needs the reactions:write scope); "
                    + "later failures like this are logged at debug", method, error);
        } else {
            log.debug("Slack {} failed: {}", method, error);
        }
    }

    /** Whether {@code id} is a Slack message ts ({@code 1700000000.000100}). */
    static boolean isMessageTs(String id) {
        return id != null && TS.matcher(id).matches();
    }
}
