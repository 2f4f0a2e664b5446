package dev.laneway.core.channel;

import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one "seen recently" set: a key is remembered for {@code ttl} after it was last added, and at
 * most {@code max} keys are kept (the oldest are forgotten first), so memory is bounded whatever
 * the traffic. Used for the gateway's message dedupe, Slack's event and slash-command replays and
 * the threads the bot takes part in, Telegram's update ids, Discord's pinged messages, and the
 * like.
 *
 * <p>Concurrency: {@code lock} guards {@code keys}; any thread may call in.
 */
public final class ExpiringKeys implements SeenIds {

    private final ReentrantLock lock = new ReentrantLock();
    // key -> present; guarded by lock
    private final ExpiringEntries<Boolean> keys;

    /** @throws IllegalArgumentException when {@code ttl} is not positive or {@code max} is below 1 */
    public ExpiringKeys(InstantSource clock, Duration ttl, int max) {
        this.keys = new ExpiringEntries<>(clock, ttl, max);
    }

    /** Adds {@code key} (its ttl starts again); true when it was not remembered: the first sighting within the ttl. */
    @Override
    public boolean add(String key) {
        lock.lock();
        try {
            return keys.put(key, Boolean.TRUE) == null;
        } finally {
            lock.unlock();
        }
    }

    public boolean contains(String key) {
        lock.lock();
        try {
            return keys.containsKey(key);
        } finally {
            lock.unlock();
        }
    }

    /** Forgets {@code key}, so its next {@link #add} is a first sighting again; true when it was remembered. */
    @Override
    public boolean remove(String key) {
        lock.lock();
        try {
            return keys.remove(key) != null;
        } finally {
            lock.unlock();
        }
    }

    public int size() {
        lock.lock();
        try {
            return keys.size();
        } finally {
            lock.unlock();
        }
    }
}
