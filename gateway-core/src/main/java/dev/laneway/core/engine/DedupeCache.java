package dev.laneway.core.engine;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.store.JournalEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Remembers platform message ids (channel, account, chat, id) for a window, so a redelivered
 * message is recognised. Entries expire in insertion order; memory is bounded by the traffic of one
 * window and by {@link #MAX_ENTRIES} (about 30 MB), beyond which the oldest are forgotten early
 * (the journal's answered records still catch redeliveries of answered messages).
 *
 * <p>Concurrency: {@code lock} guards {@code seen}.
 */
final class DedupeCache {

    /** Bound on remembered ids, whatever the traffic: the oldest are forgotten first. */
    static final int MAX_ENTRIES = 200_000;

    private final Duration window;
    private final ReentrantLock lock = new ReentrantLock();
    // message key -> when it was first seen; insertion order = age order
    private final LinkedHashMap<String, Instant> seen = new LinkedHashMap<>();

    DedupeCache(Duration window) {
        this.window = window;
    }

    /** Returns true the first time a message is seen within the window; false for a duplicate. */
    boolean firstSighting(InboundMessage message, Instant now) {
        String key = JournalEntry.keyOf(message);
        if (key == null || window.isZero()) {
            return true;
        }
        lock.lock();
        try {
            expire(now);
            boolean first = seen.putIfAbsent(key, now) == null;
            if (first && seen.size() > MAX_ENTRIES) {
                Iterator<String> eldest = seen.keySet().iterator();
                eldest.next();
                eldest.remove();
            }
            return first;
        } finally {
            lock.unlock();
        }
    }

    /** Forgets a message seen before, so a redelivery of it is processed (it was refused, not handled). */
    void forget(InboundMessage message) {
        String key = JournalEntry.keyOf(message);
        if (key == null) {
            return;
        }
        lock.lock();
        try {
            seen.remove(key);
        } finally {
            lock.unlock();
        }
    }

    private void expire(Instant now) {
        Instant horizon = now.minus(window);
        Iterator<Map.Entry<String, Instant>> it = seen.entrySet().iterator();
        while (it.hasNext() && !it.next().getValue().isAfter(horizon)) {
            it.remove();
        }
    }

    int size() {
        lock.lock();
        try {
            return seen.size();
        } finally {
            lock.unlock();
        }
    }
}
