package dev.laneway.channels.telegram;

import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Remembers the last {@code capacity} update ids, so an update delivered again (a new polling
 * session starts from offset 0; a Bot API server that lost its confirmations re-sends) is not
 * processed twice. The SDK also drops ids at or below the last one it saw, but only within one
 * session; this survives a stop and start of the channel. Ids, not a high-water mark: Telegram may
 * restart its id sequence at a random value after a week without updates.
 *
 * <p>Concurrency: {@code lock} guards {@code seen}.
 */
final class UpdateDeduper {

    private final int capacity;
    private final ReentrantLock lock = new ReentrantLock();
    // update ids seen, oldest first
    private final LinkedHashSet<Integer> seen = new LinkedHashSet<>();

    UpdateDeduper(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
        }
        this.capacity = capacity;
    }

    /** Forgets an id whose update could not be handed over, so a redelivery is taken. */
    void forget(int updateId) {
        lock.lock();
        try {
            seen.remove(updateId);
        } finally {
            lock.unlock();
        }
    }

    /** True the first time an update id is seen; false for a repeat. */
    boolean firstSighting(int updateId) {
        lock.lock();
        try {
            if (!seen.add(updateId)) {
                return false;
            }
            if (seen.size() > capacity) {
                Iterator<Integer> oldest = seen.iterator();
                oldest.next();
                oldest.remove();
            }
            return true;
        } finally {
            lock.unlock();
        }
    }
}
