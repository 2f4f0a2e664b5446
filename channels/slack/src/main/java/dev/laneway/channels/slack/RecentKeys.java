package dev.laneway.channels.slack;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A bounded set of string keys that forgets a key {@code ttl} after it was last added: used for
 * event ids already seen (Slack retries an unacknowledged event for up to about five minutes) and
 * for threads the bot takes part in.
 *
 * <p>Concurrency: {@code lock} guards {@code seen}. The map is kept in last-touched order, so
 * expiry and the size bound only ever look at its head.
 */
final class RecentKeys {

    private final InstantSource clock;
    private final Duration ttl;
    private final int maxSize;
    private final ReentrantLock lock = new ReentrantLock();
    // key -> when it was last added; guarded by lock; oldest first
    private final LinkedHashMap<String, Instant> seen = new LinkedHashMap<>();

    RecentKeys(InstantSource clock, Duration ttl, int maxSize) {
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("ttl must be positive, got " + ttl);
        }
        if (maxSize < 1) {
            throw new IllegalArgumentException("maxSize must be >= 1, got " + maxSize);
        }
        this.clock = clock;
        this.ttl = ttl;
        this.maxSize = maxSize;
    }

    /** Adds {@code key}; true when it was not present (first sighting within the ttl). */
    boolean add(String key) {
        lock.lock();
        try {
            Instant now = clock.instant();
            expire(now);
            boolean fresh = seen.remove(key) == null;
            seen.put(key, now);
            if (seen.size() > maxSize) {
                Iterator<String> oldest = seen.keySet().iterator();
                oldest.next();
                oldest.remove();
            }
            return fresh;
        } finally {
            lock.unlock();
        }
    }

    boolean contains(String key) {
        lock.lock();
        try {
            expire(clock.instant());
            return seen.containsKey(key);
        } finally {
            lock.unlock();
        }
    }

    private void expire(Instant now) {
        Iterator<Map.Entry<String, Instant>> it = seen.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<String, Instant> oldest = it.next();
            if (oldest.getValue().plus(ttl).isAfter(now)) {
                return;
            }
            it.remove();
        }
    }
}
