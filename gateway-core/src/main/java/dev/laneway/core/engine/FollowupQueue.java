package dev.laneway.core.engine;

import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The followup queue of one session (spec section 5): queued items in arrival order, the cap and
 * drop policy, the overflow summary, the drop notices owed at the next drain, and when the next
 * drain is due. Pure bookkeeping: no I/O, no timers, time passed in. Not thread-safe: guarded by
 * the owning {@link SessionQueue}'s lock.
 */
final class FollowupQueue {

    private final List<QueuedItem> items = new ArrayList<>();           // arrival (sequence) order
    private final List<String> overflow = new ArrayList<>();            // summary lines of dropped items
    private final Map<String, DropTally> dropTallies = new LinkedHashMap<>(); // sender id -> drops to report
    private final Set<String> rejectedThisCycle = new HashSet<>();      // sender ids told "not queued"
    private Instant firstQueuedAt;
    private Instant lastQueuedAt;

    /**
     * What offering an item did.
     *
     * @param accepted        whether the item was queued (false: rejected by {@code drop: new})
     * @param notifyRejection whether the rejected sender must be told (once per drain cycle)
     * @param dropped         older items dropped to make room
     * @param summarized      whether the dropped items were kept as summary lines
     */
    record Offer(boolean accepted, boolean notifyRejection, List<QueuedItem> dropped, boolean summarized) {
    }

    /**
     * The next turn, taken off the queue.
     *
     * @param batch   the items of the turn: a collect batch, or one item
     * @param collect whether it is a collect turn
     * @param summary overflow summary lines the turn must start with
     * @param notices drops to report, one tally per sender
     * @param delay   how long after the last queued message the drain happens
     */
    record Drain(List<QueuedItem> batch, boolean collect, List<String> summary, List<DropTally> notices, Duration delay) {
    }

    Offer offer(QueuedItem item, Instant now) {
        var settings = item.settings();
        if (items.size() >= settings.cap() && settings.drop() == DropPolicy.NEW) {
            return new Offer(false, rejectedThisCycle.add(item.last().senderId()), List.of(), false);
        }
        boolean summarize = settings.drop() == DropPolicy.SUMMARIZE;
        List<QueuedItem> dropped = new ArrayList<>();
        while (items.size() >= settings.cap()) {
            QueuedItem victim = items.remove(0);
            dropped.add(victim);
            if (summarize) {
                overflow.add(PromptFormatter.summaryLine(victim.text()));
            }
            dropTallies.computeIfAbsent(victim.last().senderId(), sender -> new DropTally())
                    .add(victim, settings.cap(), summarize);
        }
        items.add(item);
        if (firstQueuedAt == null) {
            firstQueuedAt = now;
        }
        lastQueuedAt = now;
        return new Offer(true, false, dropped, summarize);
    }

    /** Whether queueing this item would keep it (false when full and its policy rejects newcomers). */
    boolean hasRoomFor(QueuedItem item) {
        return items.size() < item.settings().cap() || item.settings().drop() != DropPolicy.NEW;
    }

    /**
     * When the next drain is due: {@code debounce} after the last queued message, but no later than
     * {@code maxWait} after the first ({@code null} = 10 x debounce, zero = no bound); null when empty.
     */
    Instant drainDue(Duration maxWait) {
        if (items.isEmpty()) {
            return null;
        }
        Duration debounce = items.get(items.size() - 1).settings().debounce();
        Instant due = lastQueuedAt.plus(debounce);
        Duration bound = maxWait != null ? maxWait : debounce.multipliedBy(10);
        if (!bound.isZero() && firstQueuedAt.plus(bound).isBefore(due)) {
            due = firstQueuedAt.plus(bound);
        }
        return due;
    }

    /**
     * Takes the next turn: a head collect item with the following collect items of the same route
     * and sender authority, or the head item alone. Also hands over the overflow summary and the
     * drop notices owed, and opens a new notice cycle.
     */
    Drain take(Instant now) {
        QueuedItem head = items.get(0);
        boolean collect = head.mode() == QueueMode.COLLECT;
        int size = 1;
        while (collect && size < items.size() && joinsBatch(head, items.get(size))) {
            size++;
        }
        List<QueuedItem> batch = List.copyOf(items.subList(0, size));
        items.subList(0, size).clear();
        Duration delay = Duration.between(lastQueuedAt, now);
        if (items.isEmpty()) {
            firstQueuedAt = null;
            lastQueuedAt = null;
        }
        Drain drain = new Drain(batch, collect, List.copyOf(overflow), List.copyOf(dropTallies.values()), delay);
        overflow.clear();
        dropTallies.clear();
        rejectedThisCycle.clear();
        return drain;
    }

    private static boolean joinsBatch(QueuedItem head, QueuedItem next) {
        return next.mode() == QueueMode.COLLECT && next.trusted() == head.trusted()
                && next.route().sameConversation(head.route());
    }

    /** Puts an item back at its arrival position (a steer the model never saw). */
    void requeue(QueuedItem item, Instant now) {
        int at = 0;
        while (at < items.size() && items.get(at).seq() < item.seq()) {
            at++;
        }
        items.add(at, item);
        if (firstQueuedAt == null) {
            firstQueuedAt = now;
        }
        if (lastQueuedAt == null) {
            lastQueuedAt = now;
        }
    }

    /** Empties the queue (interrupt, stop) and forgets summaries and owed notices; returns what was queued. */
    List<QueuedItem> clear() {
        List<QueuedItem> cleared = List.copyOf(items);
        items.clear();
        overflow.clear();
        dropTallies.clear();
        rejectedThisCycle.clear();
        firstQueuedAt = null;
        lastQueuedAt = null;
        return cleared;
    }

    boolean isEmpty() {
        return items.isEmpty();
    }

    /** Queued messages (an inbound-debounced item counts each of its messages). */
    int messageCount() {
        return items.stream().mapToInt(item -> item.tickets().size()).sum();
    }
}
