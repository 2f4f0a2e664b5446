package dev.laneway.channels.slack;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.Route;
import dev.laneway.core.channel.SendFailure;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Live answers streamed with Slack's streaming methods (docs/behaviour.md §16.1, D212):
 * {@code chat.startStream} in the reply's thread (outside a DM with the asker's user and team as the
 * recipient), {@code chat.appendStream} while the text only grows, {@code chat.stopStream} with the
 * last of it. A change that is not an append (a tool line that goes, a retried model call) stops the
 * stream and goes on by {@code chat.update}. A workspace that refuses the methods themselves
 * ({@code unknown_method}, {@code not_allowed_token_type}, a missing scope, HTTP 404) is remembered,
 * and its answers stream by {@code chat.postMessage} + {@code chat.update} from then on; any other
 * refusal of a start posts that answer as a message.
 *
 * <p>Concurrency: {@code open} (stream ts to the Markdown it shows) and {@code replaced} (a stream
 * stopped early: what its message shows) are concurrent maps, and each
 * stream is touched only by its chat's outbox owner; {@code askers} is guarded by its own monitor;
 * {@code refused} is volatile and only ever set.
 */
final class SlackStreams {

    private static final Logger log = LoggerFactory.getLogger(SlackStreams.class);
    /** How many asked messages are remembered for their recipient ids. */
    static final int ASKERS = 10_000;

    /** Who asked a message: the recipient of its answer's stream. */
    record Asker(String userId, String teamId) {
    }

    // "<channel>\0<message ts>" -> who asked it; the oldest dropped past ASKERS
    private final Map<String, Asker> askers = new LinkedHashMap<>(256, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Asker> eldest) {
            return size() > ASKERS;
        }
    };
    private final Map<String, String> open = new ConcurrentHashMap<>();
    // ts of a stream stopped early and replaced -> the Markdown it shows now (until its final text)
    private final Map<String, String> replaced = new ConcurrentHashMap<>();
    private volatile boolean refused;

    /** An inbound message: its answer may stream to its sender. */
    void asked(InboundMessage message) {
        if (message.platformMessageId() == null || message.senderId() == null) {
            return;
        }
        synchronized (askers) {
            askers.put(message.chatId() + '\u0000' + message.platformMessageId(),
                    new Asker(message.senderId(), message.spaceId()));
        }
    }

    /**
     * Starts a stream for {@code route}'s reply showing {@code markdown}; returns its ts, or null when
     * the reply cannot stream (not in a thread, no known asker outside a DM, the workspace refused the
     * methods, or this start was refused): the caller posts it as a message.
     */
    String start(SlackWeb web, Route route, boolean direct, String markdown) throws SendFailure {
        if (refused || route.threadId() == null) {
            return null;
        }
        Asker asker = null;
        if (!direct) {
            synchronized (askers) {
                asker = route.replyToMessageId() == null ? null
                        : askers.get(route.chatId() + '\u0000' + route.replyToMessageId());
            }
            if (asker == null || asker.teamId() == null) {
                return null; // outside a DM the stream needs its recipient
            }
        }
        try {
            String ts = web.startStream(route.chatId(), route.threadId(), asker == null ? null : asker.userId(),
                    asker == null ? null : asker.teamId(), markdown);
            if (ts != null) {
                open.put(ts, markdown);
            }
            return ts;
        } catch (SendFailure failure) {
            if (failure.kind() != SendFailure.Kind.REFUSED) {
                throw failure;
            }
            if (methodRefused(failure.getMessage())) {
                refused = true;
                log.info("slack: the workspace refused chat.startStream ({}); answers stream by chat.update from now on",
                        failure.getMessage());
            } else {
                log.debug("slack: chat.startStream refused ({}); this answer is posted", failure.getMessage());
            }
            return null;
        }
    }

    /** Whether {@code ts} is a stream still open. */
    boolean isOpen(String ts) {
        return ts != null && open.containsKey(ts);
    }

    /**
     * The open stream {@code ts} is to show {@code markdown}: appended when it only grows, else the
     * stream is stopped and the message replaced by {@code chat.update} (it is then a plain message).
     */
    void update(SlackWeb web, String channel, String ts, String markdown) throws SendFailure {
        String shown = open.get(ts);
        if (markdown.startsWith(shown)) {
            String more = markdown.substring(shown.length());
            if (!more.isEmpty()) {
                web.appendStream(channel, ts, more);
                open.put(ts, markdown);
            }
            return;
        }
        web.stopStream(channel, ts, null);
        open.remove(ts);
        web.updateMessage(channel, ts, MrkdwnFormatter.format(markdown));
        replaced.put(ts, markdown);
    }

    /** The stream {@code ts}, stopped early and replaced, was changed by {@code chat.update} to show {@code markdown}. */
    void replacedWith(String ts, String markdown) {
        replaced.computeIfPresent(ts, (k, shown) -> markdown);
    }

    /**
     * The final text of a stream stopped early and replaced: whether it shows {@code markdown} already
     * (nothing to call); it is forgotten either way.
     */
    boolean showsAlready(String ts, String markdown) {
        return markdown.equals(replaced.remove(ts));
    }

    /** The stream {@code ts} ends showing {@code markdown} ({@code chat.stopStream}, replaced when it was not an append). */
    void finish(SlackWeb web, String channel, String ts, String markdown) throws SendFailure {
        String shown = open.get(ts);
        boolean grows = markdown.startsWith(shown);
        String more = grows ? markdown.substring(shown.length()) : "";
        web.stopStream(channel, ts, more.isEmpty() ? null : more);
        open.remove(ts);
        if (!grows) {
            web.updateMessage(channel, ts, MrkdwnFormatter.format(markdown));
        }
    }

    /** Whether a refusal is of the streaming methods themselves (the workspace or token cannot use them). */
    static boolean methodRefused(String detail) {
        String lower = detail.toLowerCase(Locale.ROOT);
        return lower.contains("unknown_method") || lower.contains("not_allowed") || lower.contains("missing_scope")
                || lower.contains("method_deprecated") || lower.contains("http 404");
    }
}
