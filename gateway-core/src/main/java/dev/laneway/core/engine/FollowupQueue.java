package dev.laneway.core.engine;

import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The followup queue of one session (docs/behaviour.md §5): queued items in arrival order, the cap and
 * drop policy, the overflow summaries, the drop notices owed at the next drain, and when the next
 * drain is due. Pure bookkeeping: no I/O, no timers, time passed in. Not thread-safe: guarded by
 * the owning {@link SessionQueue}'s lock.
 *
 * <p>Overflow summaries belong to the {@link Audience} (conversation and sender authority) of the
 * items they summarize and ride only on a turn of the same audience. A summary whose audience has
 * no queued item left becomes a turn of its own, so it is never lost and never runs with another
 * sender's permissions or in another thread.
 *
 * <p>Cost at depth: queueing, dropping the oldest and draining the next turn touch only the ends of
 * an {@link ArrayDeque} and per-audience counts, so they take the same time whether 10 or a
 * million items wait (a collect batch costs its own size). Only putting a steer back in the middle
 * ({@link #requeue}) and clearing the queue walk it.
 */
final class FollowupQueue {

    // The collections start empty and shared (Map.of(), Set.of(), a one-slot deque) and are made on
    // the first write: most sessions run one message and retire without queueing anything, and a
    // session is made for each run.
    private final ArrayDeque<QueuedItem> items = new ArrayDeque<>(1);    // arrival (sequence) order
    // audience -> how many of its items are queued (absent: none), so an orphaned summary is found
    // without walking the queue
    // While every queued item has one audience (the usual case), its count is kept in two fields
    // and the map stays empty; the map takes over once a second audience queues.
    private Map<Audience, Integer> queuedByAudience = Map.of();
    private Audience soleAudience; // non-null only while queuedByAudience is empty
    private int soleCount;
    private int messages; // tickets of the queued items
    // audience -> summary lines of its dropped items, in order of the first drop
    private Map<Audience, Overflow> overflow = Map.of();
    // sender key (channel, account, sender id) -> drops to report
    private Map<String, DropTally> dropTallies = Map.of();
    private Set<String> rejectedThisCycle = Set.of();                   // sender keys told "not queued"
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
     * @param batch    the items of the turn: a collect batch, or one item; empty for a turn that
     *                 carries only an overflow summary
     * @param collect  whether it is a collect turn
     * @param overflow the overflow summary the turn must start with, or null
     * @param notices  drops to report, one tally per sender
     * @param delay    how long after the last queued message the drain happens
     */
    record Drain(List<QueuedItem> batch, boolean collect, Overflow overflow, List<DropTally> notices, Duration delay) {

        List<String> summary() {
            return overflow == null ? List.of() : List.copyOf(overflow.lines);
        }
    }

    /** What {@link #clear} removed: the queued items and the drop notices still owed. */
    record Cleared(List<QueuedItem> items, List<DropTally> notices) {
    }

    Offer offer(QueuedItem item, Instant now) {
        var settings = item.settings();
        if (items.size() >= settings.cap() && settings.drop() == DropPolicy.NEW) {
            if (rejectedThisCycle.isEmpty()) {
                rejectedThisCycle = new HashSet<>();
            }
            return new Offer(false, rejectedThisCycle.add(item.senderKey()), List.of(), false);
        }
        boolean summarize = settings.drop() == DropPolicy.SUMMARIZE;
        List<QueuedItem> dropped = new ArrayList<>();
        while (items.size() >= settings.cap()) {
            QueuedItem victim = removeFirst();
            dropped.add(victim);
            if (summarize) {
                if (overflow.isEmpty()) {
                    overflow = new LinkedHashMap<>();
                }
                overflow.computeIfAbsent(victim.audience(), Overflow::new).add(victim);
            }
            if (dropTallies.isEmpty()) {
                dropTallies = new LinkedHashMap<>();
            }
            dropTallies.computeIfAbsent(victim.senderKey(), sender -> new DropTally())
                    .add(victim, settings.cap(), summarize);
        }
        items.addLast(item);
        counted(item);
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
     * {@code maxWait} after the first ({@code null} = 10 x debounce, zero = no bound); {@code now}
     * when only an overflow summary is left; null when empty.
     */
    Instant drainDue(Duration maxWait, Instant now) {
        if (items.isEmpty()) {
            return overflow.isEmpty() ? null : now;
        }
        Duration debounce = items.peekLast().settings().debounce();
        Instant due = lastQueuedAt.plus(debounce);
        Duration bound = maxWait != null ? maxWait
                : debounce.isZero() ? Duration.ZERO : debounce.multipliedBy(10); // multipliedBy computes in BigDecimal
        if (!bound.isZero() && firstQueuedAt.plus(bound).isBefore(due)) {
            due = firstQueuedAt.plus(bound);
        }
        return due;
    }

    /**
     * Takes the next turn. First an overflow summary no queued item can carry (its items were the
     * oldest), as a turn of its own; otherwise a head collect item with the following collect items
     * of the same audience, or the head item alone, with the summary of its audience. Also hands
     * over the drop notices owed, and opens a new notice cycle.
     */
    Drain take(Instant now) {
        Duration delay = lastQueuedAt == null ? Duration.ZERO : Duration.between(lastQueuedAt, now);
        Overflow orphan = orphanedOverflow();
        if (orphan != null) {
            overflow.remove(orphan.audience); // not empty: it held the orphan
            return new Drain(List.of(), false, orphan, takeNotices(), delay);
        }
        QueuedItem head = removeFirst();
        boolean collect = head.mode() == QueueMode.COLLECT;
        List<QueuedItem> batch = new ArrayList<>(1);
        batch.add(head);
        while (collect && !items.isEmpty() && joinsBatch(head, items.peekFirst())) {
            batch.add(removeFirst());
        }
        if (items.isEmpty()) {
            firstQueuedAt = null;
            lastQueuedAt = null;
        }
        return new Drain(List.copyOf(batch), collect, overflow.isEmpty() ? null : overflow.remove(head.audience()),
                takeNotices(), delay);
    }

    private Overflow orphanedOverflow() {
        for (Overflow candidate : overflow.values()) {
            if (!isQueued(candidate.audience)) {
                return candidate;
            }
        }
        return null;
    }

    /** Takes the oldest item off the queue. */
    private QueuedItem removeFirst() {
        QueuedItem item = items.removeFirst();
        if (soleAudience != null) { // every queued item has this audience
            if (--soleCount == 0) {
                soleAudience = null;
            }
        } else {
            queuedByAudience.computeIfPresent(item.audience(), (queued, count) -> count == 1 ? null : count - 1);
        }
        messages -= item.tickets().size();
        return item;
    }

    /** Counts an item that was just queued. */
    private void counted(QueuedItem item) {
        messages += item.tickets().size();
        Audience audience = item.audience();
        if (queuedByAudience.isEmpty()) {
            if (soleAudience == null || soleAudience.equals(audience)) {
                soleAudience = audience;
                soleCount++;
                return;
            }
            queuedByAudience = new HashMap<>(); // a second audience: the map takes over
            queuedByAudience.put(soleAudience, soleCount);
            soleAudience = null;
            soleCount = 0;
        }
        queuedByAudience.merge(audience, 1, Integer::sum);
    }

    /** Whether an item of {@code audience} is queued. */
    private boolean isQueued(Audience audience) {
        return soleAudience != null ? soleAudience.equals(audience) : queuedByAudience.containsKey(audience);
    }

    private List<DropTally> takeNotices() {
        if (dropTallies.isEmpty() && rejectedThisCycle.isEmpty()) {
            return List.of();
        }
        List<DropTally> notices = List.copyOf(dropTallies.values());
        dropTallies = Map.of();
        rejectedThisCycle = Set.of();
        return notices;
    }

    private static boolean joinsBatch(QueuedItem head, QueuedItem next) {
        return next.mode() == QueueMode.COLLECT && next.audience().equals(head.audience());
    }

    /** Puts an item back at its arrival position (a steer the model never saw). */
    void requeue(QueuedItem item, Instant now) {
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
        counted(item);
        if (firstQueuedAt == null) {
            firstQueuedAt = now;
        }
        if (lastQueuedAt == null) {
            lastQueuedAt = now;
        }
    }

    /**
     * Empties the queue (interrupt, stop): forgets the overflow summaries and hands back what was
     * queued together with the drop notices still owed, so their senders are told all the same.
     */
    Cleared clear() {
        List<QueuedItem> cleared = List.copyOf(items);
        items.clear();
        queuedByAudience = Map.of();
        soleAudience = null;
        soleCount = 0;
        messages = 0;
        overflow = Map.of();
        firstQueuedAt = null;
        lastQueuedAt = null;
        return new Cleared(cleared, takeNotices());
    }

    /**
     * For a shutdown, which drains nothing more: forgets the overflow summaries (their turns will
     * not run) and hands back the drop notices owed. Queued items stay.
     */
    List<DropTally> releaseForShutdown() {
        overflow = Map.of();
        return takeNotices();
    }

    /** True when neither an item nor an overflow summary waits for a turn. */
    boolean isEmpty() {
        return items.isEmpty() && overflow.isEmpty();
    }

    /** The queued items, oldest first (a read-only view). */
    Collection<QueuedItem> items() {
        return Collections.unmodifiableCollection(items);
    }

    /** Queued messages (an inbound-debounced item counts each of its messages). */
    int messageCount() {
        return messages;
    }
}
