package dev.laneway.channels.discord;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Slash-command interactions waiting for their answer. Discord accepts follow-ups on an
 * interaction token for 15 minutes, so an entry expires after {@link #DEFAULT_TTL}; at most
 * {@code capacity} entries are kept, the oldest dropped first, so a flood of commands cannot grow
 * the map. A route whose entry is gone is answered as a plain channel message instead.
 *
 * <p>Concurrency: {@code lock} guards {@code entries}; JDA's event thread puts, the outbox's threads
 * get. Values are handed out and used outside the lock.
 *
 * @param <H> the handle to answer through (JDA's {@code InteractionHook} in production)
 */
final class PendingInteractions<H> {

    static final Duration DEFAULT_TTL = Duration.ofMinutes(14);
    static final int DEFAULT_CAPACITY = 1000;

    private final InstantSource clock;
    private final Duration ttl;
    private final int capacity;
    private final ReentrantLock lock = new ReentrantLock();
    // interaction id -> pending answer, in arrival order (so the eldest is first)
    private final LinkedHashMap<String, Pending<H>> entries = new LinkedHashMap<>();

    PendingInteractions(InstantSource clock, Duration ttl, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
        }
        this.clock = clock;
        this.ttl = ttl;
        this.capacity = capacity;
    }

    void put(String interactionId, H handle, boolean ephemeral) {
        Instant now = clock.instant();
        lock.lock();
        try {
            purgeExpired(now);
            entries.put(interactionId, new Pending<>(handle, ephemeral, now.plus(ttl)));
            Iterator<String> eldest = entries.keySet().iterator();
            while (entries.size() > capacity) {
                eldest.next();
                eldest.remove();
            }
        } finally {
            lock.unlock();
        }
    }

    /** The pending answer for an interaction, unless it expired or was evicted. */
    Optional<Pending<H>> get(String interactionId) {
        Instant now = clock.instant();
        lock.lock();
        try {
            purgeExpired(now);
            return Optional.ofNullable(entries.get(interactionId));
        } finally {
            lock.unlock();
        }
    }

    int size() {
        lock.lock();
        try {
            return entries.size();
        } finally {
            lock.unlock();
        }
    }

    // entries are in arrival order and share one ttl, so the expired ones are a prefix
    private void purgeExpired(Instant now) {
        Iterator<Map.Entry<String, Pending<H>>> it = entries.entrySet().iterator();
        while (it.hasNext() && !it.next().getValue().expiresAt().isAfter(now)) {
            it.remove();
        }
    }

    /** An interaction's handle, whether its answers are ephemeral, and when the token stops working. */
    record Pending<H>(H handle, boolean ephemeral, Instant expiresAt) {
    }
}
