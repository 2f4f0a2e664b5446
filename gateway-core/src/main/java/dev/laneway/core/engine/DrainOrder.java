package dev.laneway.core.engine;

import java.util.Collection;
import java.util.List;

/**
 * The order in which a session's queued items drain (docs/behaviour.md §5.3): {@link ArrivalOrder}
 * in a DM, {@link SenderRotation} (round robin across senders) in a group conversation. Only the
 * order: the cap, the drop policies, overflow summaries and notices are {@link FollowupQueue}'s.
 * Not thread-safe: guarded by the owning {@link SessionQueue}'s lock, like the queue.
 *
 * <p>Every operation costs the same at any depth (amortised), except {@link #putBack} of an item
 * that belongs in the middle, {@link #inArrivalOrder()}'s walk and {@link #clear}.
 */
sealed interface DrainOrder permits ArrivalOrder, SenderRotation {

    int size();

    default boolean isEmpty() {
        return size() == 0;
    }

    /** Queues a newcomer (the newest item). */
    void add(QueuedItem item);

    /** Queues an item again at its arrival position, by sequence (a steer the model never saw). */
    void putBack(QueuedItem item);

    /** The item the next drain takes first; the queue must not be empty. */
    QueuedItem peekNext();

    /** Takes {@link #peekNext()} off the queue. */
    QueuedItem takeNext();

    /** Takes the oldest queued item (by sequence) off the queue: the victim of {@code drop: old}. */
    QueuedItem takeOldest();

    /** The newest queued item, or null when empty: its debounce times the drain. */
    QueuedItem newest();

    /** The queued items, oldest first (a read-only view). */
    Collection<QueuedItem> inArrivalOrder();

    /** Empties the queue; returns what it held, oldest first. */
    List<QueuedItem> clear();
}
