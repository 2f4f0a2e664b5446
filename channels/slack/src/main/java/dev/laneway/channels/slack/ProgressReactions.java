package dev.laneway.channels.slack;

import dev.laneway.core.Route;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The 👀 progress reaction. Slack bots have no typing indicator, so {@link #claim} (called from
 * {@code typing(route)}) reacts once to the message a route replies to, and {@link #finish}
 * (called from {@code runEnded(route)}) removes the reaction from every message of that
 * conversation up to and including the one the run answered (a collected run answers the last of
 * its batch). Messages that arrived later are still queued and keep theirs.
 *
 * <p>Concurrency: {@code lock} guards {@code conversations}. The API calls are handed to a serial
 * executor while the lock is held, so Slack sees every add before the matching remove even when
 * the gateway's typing and runEnded callbacks race on different threads. A finished conversation
 * remembers how far it finished, so a late {@code typing} for an answered message adds nothing.
 * Conversations untouched for {@code ttl} are forgotten.
 */
final class ProgressReactions {

    static final String EMOJI = "eyes";
    private static final Logger log = LoggerFactory.getLogger(ProgressReactions.class);
    private static final Pattern TS = Pattern.compile("\\d{1,12}\\.\\d{1,9}");

    /** The Slack calls; each returns Slack's error code, or null when done. */
    interface Api {
        String add(String channel, String ts);

        String remove(String channel, String ts);
    }

    private final Api api;
    private final Executor serial;
    private final InstantSource clock;
    private final Duration ttl;
    private final ReentrantLock lock = new ReentrantLock();
    private final Set<String> warned = ConcurrentHashMap.newKeySet();           // method:error already logged
    // chat + thread -> reactions in that conversation; guarded by lock; least recently touched first
    private final LinkedHashMap<String, Conversation> conversations = new LinkedHashMap<>();

    ProgressReactions(Api api, Executor serial, InstantSource clock, Duration ttl) {
        this.api = api;
        this.serial = serial;
        this.clock = clock;
        this.ttl = ttl;
    }

    /** Reacts to the route's message unless it already has (or had) the reaction. */
    void claim(Route route) {
        BigDecimal ts = tsOf(route.replyToMessageId());
        if (ts == null) {
            return;
        }
        lock.lock();
        try {
            Conversation conversation = touch(route);
            if (conversation.finishedUpTo != null && ts.compareTo(conversation.finishedUpTo) <= 0
                    || conversation.reacted.containsKey(ts)) {
                return;
            }
            String raw = route.replyToMessageId();
            conversation.reacted.put(ts, raw);
            serial.execute(() -> report("reactions.add", () -> api.add(route.chatId(), raw)));
        } finally {
            lock.unlock();
        }
    }

    /** Removes the reaction from every message of the route's conversation up to its reply-to. */
    void finish(Route route) {
        BigDecimal ts = tsOf(route.replyToMessageId());
        if (ts == null) {
            return;
        }
        lock.lock();
        try {
            Conversation conversation = touch(route);
            if (conversation.finishedUpTo == null || ts.compareTo(conversation.finishedUpTo) > 0) {
                conversation.finishedUpTo = ts;
            }
            NavigableMap<BigDecimal, String> done = conversation.reacted.headMap(ts, true);
            for (String raw : done.values()) {
                serial.execute(() -> report("reactions.remove", () -> api.remove(route.chatId(), raw)));
            }
            done.clear();
        } finally {
            lock.unlock();
        }
    }

    /** Runs one call on the serial worker; an error is logged once per method and error code. */
    private void report(String method, Supplier<String> call) {
        try {
            String error = call.get();
            if (error != null && warned.add(method + ':' + error)) {
                log.warn("Slack {} failed: {} (the progress reaction needs the reactions:write scope); "
                        + "later failures like this are logged at debug", method, error);
            } else if (error != null) {
                log.debug("Slack {} failed: {}", method, error);
            }
        } catch (RuntimeException e) {
            log.warn("Slack {} failed: {}", method, e.toString());
        }
    }

    /** Reactions added and not yet removed, over all conversations (for tests and status). */
    int pending() {
        lock.lock();
        try {
            return conversations.values().stream().mapToInt(c -> c.reacted.size()).sum();
        } finally {
            lock.unlock();
        }
    }

    private Conversation touch(Route route) {
        Instant now = clock.instant();
        String key = route.chatId() + '\u0000' + (route.threadId() == null ? "" : route.threadId());
        Conversation conversation = conversations.remove(key);
        if (conversation == null) {
            conversation = new Conversation();
        }
        conversation.touched = now;
        conversations.put(key, conversation);
        Iterator<Conversation> oldest = conversations.values().iterator();
        while (oldest.hasNext()) {
            if (!oldest.next().touched.plus(ttl).isBefore(now)) {
                break;
            }
            oldest.remove();
        }
        return conversation;
    }

    /** A Slack message ts ({@code 1700000000.000100}) as a number, or null for anything else. */
    static BigDecimal tsOf(String id) {
        return id != null && TS.matcher(id).matches() ? new BigDecimal(id) : null;
    }

    private static final class Conversation {
        final TreeMap<BigDecimal, String> reacted = new TreeMap<>();
        BigDecimal finishedUpTo;
        Instant touched;
    }
}
