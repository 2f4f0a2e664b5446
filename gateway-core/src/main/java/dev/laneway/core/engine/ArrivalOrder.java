package dev.laneway.core.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/**
 * Drains in arrival order (docs/behaviour.md §5.3): a DM's followup queue. The next item is the
 * oldest; queueing, taking and dropping touch only the ends of an {@link ArrayDeque}. Guarded by
 * the owning {@link SessionQueue}'s lock.
 */
final class ArrivalOrder implements DrainOrder {

    private final ArrayDeque<QueuedItem> items = new ArrayDeque<>(1); // sequence order

    @Override
    public int size() {
        return items.size();
    }

    @Override
    public void add(QueuedItem item) {
        items.addLast(item);
    }

    @Override
    public void putBack(QueuedItem item) {
        if (items.isEmpty() || items.peekLast().seq() < item.seq()) {
            items.addLast(item);
        } else if (items.peekFirst().seq() > item.seq()) {
            items.addFirst(item);
        } else { // in the middle: rare (a failed run's steers), so the queue is rebuilt
            List<QueuedItem> all = new ArrayList<>(items.size() + 1);
            boolean placed = false;
            for (QueuedItem queued : items) {
                if (!placed && queued.seq() > item.seq()) {
                    all.add(item);
                    placed = true;
                }
                all.add(queued);
            }
            items.clear();
            items.addAll(all);
        }
    }

    @Override
    public QueuedItem peekNext() {
        return items.peekFirst();
    }

    @Override
    public QueuedItem takeNext() {
        return items.removeFirst();
    }

    @Override
    public QueuedItem takeOldest() {
        return items.removeFirst();
    }

    @Override
    public QueuedItem newest() {
        return items.peekLast();
    }

    @Override
    public Collection<QueuedItem> inArrivalOrder() {
        return Collections.unmodifiableCollection(items);
    }

    @Override
    public List<QueuedItem> clear() {
        List<QueuedItem> all = List.copyOf(items);
        items.clear();
        return all;
    }
}
