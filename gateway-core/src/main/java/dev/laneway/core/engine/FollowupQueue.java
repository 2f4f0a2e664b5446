package dev.laneway.core.engine;

import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The followup queue of one session (docs/behaviour.md §5): queued items in their drain order, the
 * cap and drop policy with a group's per-sender part of the cap, the overflow summaries, the drop
 * notices owed at the next drain, and when the next drain is due. Pure bookkeeping: no I/O, no
 * timers, time passed in. Not thread-safe: guarded by the owning {@link SessionQueue}'s lock.
 *
 * <p>The drain order ({@link DrainOrder}) is chosen by the first item queued: arrival order in a DM
 * ({@link ArrivalOrder}); in a group conversation, round robin across senders ({@link SenderRotation},
 * docs/decisions.md D53). Only in a group does the cap have a per-sender part
 * ({@code messages.queue.capPerSender}, docs/behaviour.md §5.4, D54): when the queue is full, the
 * drop policy takes from a sender who holds more than their part before anyone else.
 *
 * <p>Overflow summaries belong to the {@link Audience} (conversation and sender authority) of the
 * items they summarize and ride only on a turn of the same audience. A summary whose audience has
 * no queued item left becomes a turn of its own, so it is never lost and never runs with another
 * sender's permissions or in another thread.
 *
 * <p>Cost at depth: queueing, dropping and draining the next turn cost the same whether 10 or a
 * million items wait (a collect batch costs its own size): the drain orders touch the ends of their
 * deques and lists, and audiences are counted. Only putting a steer back in the middle
 * ({@link #requeue}) and clearing the queue walk it.
 */
final class FollowupQueue {

    // The collections start empty and shared (Map.of(), Set.of(), no drain order) and are made on
    // the first write: most sessions run one message and retire without queueing anything, and a
    // session is made for each run.
    private DrainOrder order; // null until the first item is queued
    // messages.queue.capPerSender: null = half the cap (docs/configuration.md §8.1)
    private final Integer capPerSender;
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

    /** A queue with the default per-sender part (half the cap, in a group). */
    FollowupQueue() {
        this(null);
    }

    /** @param capPerSender {@code messages.queue.capPerSender}; null = half the cap */
    FollowupQueue(Integer capPerSender) {
        this.capPerSender = capPerSender;
    }

    /**
     * What offering an item did.
     *
     * @param accepted        whether the item was queued (false: refused by {@code drop: new})
     * @param notifyRejection whether the refused sender must be told (once per drain cycle)
     * @param dropped         older items dropped to make room
     * @param summarized      whether the dropped items were kept as summary lines
     * @param refused         queued items refused after all under {@code drop: new} to make room: the
     *                        newest of a group sender over their part of the cap (docs/behaviour.md §5.4)
     */
    record Offer(boolean accepted, boolean notifyRejection, List<QueuedItem> dropped, boolean summarized,
                 List<Refused> refused) {
    }

    /**
     * A queued item refused after all.
     *
     * @param item   the item
     * @param tell whether its sender must be told (once per drain cycle)
     */
    record Refused(QueuedItem item, boolean tell) {
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

    /**
     * Queues an item, first making room when the queue holds the item's cap (docs/behaviour.md §5.4):
     * each round the drop policy takes from the sender the per-sender part points at
     * ({@link #overPart}), else from the queue as a whole: {@code old} and {@code summarize} drop
     * that sender's (or the queue's) oldest item; {@code new} refuses that sender's newest queued
     * item, or, when the newcomer's own sender is the one over their part or nobody is, the newcomer.
     */
    Offer offer(QueuedItem item, Instant now) {
        DrainOrder queue = orderFor(item);
        QueueSettings settings = item.settings();
        int cap = settings.cap();
        boolean summarize = settings.drop() == DropPolicy.SUMMARIZE;
        List<QueuedItem> dropped = List.of();
        List<Refused> refused = List.of();
        if (queue.size() >= cap) {
            SenderRotation rotation = queue instanceof SenderRotation senders ? senders : null;
            int part = rotation == null ? 0 : GatewaySettings.capPerSenderPart(capPerSender, cap);
            String sender = part == 0 ? null : item.senderKey();
            while (queue.size() >= cap) {
                String over = part == 0 ? null : overPart(rotation, sender, part);
                if (settings.drop() == DropPolicy.NEW) {
                    if (over == null || over.equals(sender)) {
                        return new Offer(false, firstRejection(item.senderKey()), List.of(), false, refused);
                    }
                    QueuedItem victim = rotation.takeNewestOf(over);
                    uncount(victim);
                    if (refused.isEmpty()) {
                        refused = new ArrayList<>(1);
                    }
                    refused.add(new Refused(victim, firstRejection(over)));
                    continue;
                }
                QueuedItem victim = over == null ? queue.takeOldest() : rotation.takeOldestOf(over);
                uncount(victim);
                if (dropped.isEmpty()) {
                    dropped = new ArrayList<>(1);
                }
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
                dropTallies.computeIfAbsent(victim.senderKey(), key -> new DropTally()).add(victim, cap, summarize);
            }
        }
        queue.add(item);
        counted(item);
        if (firstQueuedAt == null) {
            firstQueuedAt = now;
        }
        lastQueuedAt = now;
        return new Offer(true, false, dropped, summarize, refused);
    }

    /**
     * In a full group queue, whose messages make room for a newcomer of {@code sender}: the newcomer's
     * own sender when they already hold their part (one more would put them over it), else the sender
     * holding the most when that is more than their part, else nobody (null: the queue as a whole).
     */
    private static String overPart(SenderRotation rotation, String sender, int part) {
        if (rotation.countOf(sender) >= part) {
            return sender;
        }
        return rotation.most() > part ? rotation.mostQueued() : null;
    }

    /** Whether the sender is told about a refusal now: once per sender until the next drain. */
    private boolean firstRejection(String senderKey) {
        if (rejectedThisCycle.isEmpty()) {
            rejectedThisCycle = new HashSet<>();
        }
        return rejectedThisCycle.add(senderKey);
    }

    /**
     * Whether queueing this item would keep it (false when full and its policy refuses it). In a
     * group queue above a cap that was lowered meanwhile it may say false where {@link #offer} would,
     * after refusing a flooder's newest items, keep it after all; never the other way round.
     */
    boolean hasRoomFor(QueuedItem item) {
        QueueSettings settings = item.settings();
        int size = order == null ? 0 : order.size();
        if (size < settings.cap() || settings.drop() != DropPolicy.NEW) {
            return true;
        }
        if (!(order instanceof SenderRotation rotation) || size > settings.cap()) {
            return false;
        }
        int part = GatewaySettings.capPerSenderPart(capPerSender, settings.cap());
        if (part == 0) {
            return false;
        }
        String sender = item.senderKey();
        String over = overPart(rotation, sender, part);
        return over != null && !over.equals(sender); // one refusal of the flooder's newest makes room
    }

    /**
     * When the next drain is due: {@code debounce} after the last queued message, but no later than
     * {@code maxWait} after the first ({@code null} = 10 x debounce, zero = no bound); {@code now}
     * when only an overflow summary is left; null when empty.
     */
    Instant drainDue(Duration maxWait, Instant now) {
        if (order == null || order.isEmpty()) {
            return overflow.isEmpty() ? null : now;
        }
        Duration debounce = order.newest().settings().debounce();
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
     * oldest), as a turn of its own; otherwise the next item in the drain order: a collect item with
     * the collect items of the same audience that follow it in that order, or the item alone, with
     * the summary of its audience. Also hands over the drop notices owed, and opens a new notice
     * cycle.
     */
    Drain take(Instant now) {
        Duration delay = lastQueuedAt == null ? Duration.ZERO : Duration.between(lastQueuedAt, now);
        Overflow orphan = orphanedOverflow();
        if (orphan != null) {
            overflow.remove(orphan.audience); // not empty: it held the orphan
            return new Drain(List.of(), false, orphan, takeNotices(), delay);
        }
        QueuedItem head = takeNext();
        boolean collect = head.mode() == QueueMode.COLLECT;
        List<QueuedItem> batch = new ArrayList<>(1);
        batch.add(head);
        while (collect && !order.isEmpty() && joinsBatch(head, order.peekNext())) {
            batch.add(takeNext());
        }
        if (order.isEmpty()) {
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

    /** The drain order for a queue receiving {@code item}, made on the first one. */
    private DrainOrder orderFor(QueuedItem item) {
        if (order == null) {
            order = item.last().direct() ? new ArrivalOrder() : new SenderRotation();
        }
        return order;
    }

    /** Takes the next item of the drain order off the queue. */
    private QueuedItem takeNext() {
        QueuedItem item = order.takeNext();
        uncount(item);
        return item;
    }

    /** Forgets the counts of an item that left the queue. */
    private void uncount(QueuedItem item) {
        if (soleAudience != null) { // every queued item has this audience
            if (--soleCount == 0) {
                soleAudience = null;
            }
        } else {
            queuedByAudience.computeIfPresent(item.audience(), (queued, count) -> count == 1 ? null : count - 1);
        }
        messages -= item.tickets().size();
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

    /**
     * Whether {@code item}, offered now, would join a collect batch already waiting: a collect item
     * with an item of its audience queued (docs/behaviour.md §16.5; a receipt, so the order of a
     * group's rotation is not looked into).
     */
    boolean joinsCollect(QueuedItem item) {
        return item.mode() == QueueMode.COLLECT && order != null && !order.isEmpty() && isQueued(item.audience());
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

    /**
     * Puts an item back at its arrival position (a steer the model never saw). In a group it goes
     * back among its sender's items by arrival; a sender with nothing else queued joins the rotation
     * at its back, like a newcomer.
     */
    void requeue(QueuedItem item, Instant now) {
        orderFor(item).putBack(item);
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
     * queued, oldest first, together with the drop notices still owed, so their senders are told all
     * the same.
     */
    Cleared clear() {
        List<QueuedItem> cleared = order == null ? List.of() : order.clear();
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
     * {@code /queue cancel} (docs/behaviour.md §6.9): takes the items {@code which} selects off the
     * queue and hands them back, oldest first; the others keep their order, the overflow summaries and
     * the drop notices owed stay.
     */
    List<QueuedItem> cancel(java.util.function.Predicate<QueuedItem> which) {
        if (order == null || order.isEmpty()) {
            return List.of();
        }
        List<QueuedItem> all = order.clear();
        queuedByAudience = Map.of();
        soleAudience = null;
        soleCount = 0;
        messages = 0;
        List<QueuedItem> cancelled = new ArrayList<>();
        for (QueuedItem item : all) {
            if (which.test(item)) {
                cancelled.add(item);
            } else {
                order.add(item);
                counted(item);
            }
        }
        if (isEmpty()) {
            firstQueuedAt = null;
            lastQueuedAt = null;
        }
        return cancelled;
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
        return (order == null || order.isEmpty()) && overflow.isEmpty();
    }

    /** The queued items, oldest first (a read-only view). */
    Collection<QueuedItem> items() {
        return order == null ? List.of() : order.inArrivalOrder();
    }

    /** Queued messages (an inbound-debounced item counts each of its messages). */
    int messageCount() {
        return messages;
    }
}
