package dev.laneway.core.scheduling;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The runs of one priority class waiting for {@code main}, shared among tenants by deficit round
 * robin with weights (docs/behaviour.md §11.2): tenants with waiters stand in a ring; the tenant at
 * its head gets its weight in runs per round, one run per pick, then goes to the back. A tenant at
 * its own running cap is passed over (it keeps its deficit) until a run of it ends. Each tenant's
 * runs leave in the order they came. Not thread-safe: guarded by the {@link MainScheduler}'s lock.
 */
final class ClassQueue {

    /** Above this many waiting tenants an estimate assumes equal weights instead of summing them all. */
    private static final int EXACT_ESTIMATE_TENANTS = 256;

    private final ArrayDeque<Tenant.Queue> ring = new ArrayDeque<>();
    private final PriorityClass priority;
    private int waiting;

    ClassQueue(PriorityClass priority) {
        this.priority = priority;
    }

    int waiting() {
        return waiting;
    }

    /** A newcomer: at the back of its tenant's queue. */
    void add(Waiter waiter) {
        Tenant.Queue queue = waiter.tenant.queue(priority);
        queue.waiters.addLast(waiter);
        enter(queue);
    }

    /**
     * A run that had its turn and asks again (docs/behaviour.md §12): first among its tenant's waiters,
     * its tenant first in the rotation (keeping the deficit it had, or getting its weight anew).
     */
    void addFirst(Waiter waiter) {
        Tenant.Queue queue = waiter.tenant.queue(priority);
        queue.waiters.addFirst(waiter);
        waiting++;
        if (queue.inRing) {
            ring.remove(queue);
        } else {
            queue.inRing = true;
            queue.deficit = 0;
        }
        ring.addFirst(queue);
    }

    /** A waiter promoted into this class: among its tenant's waiters by the time it came. */
    void addByAge(Waiter waiter) {
        Tenant.Queue queue = waiter.tenant.queue(priority);
        ArrayDeque<Waiter> waiters = queue.waiters;
        if (waiters.isEmpty() || waiters.peekFirst().enqueuedAtMillis >= waiter.enqueuedAtMillis) {
            waiters.addFirst(waiter);
        } else if (waiters.peekLast().enqueuedAtMillis <= waiter.enqueuedAtMillis) {
            waiters.addLast(waiter);
        } else { // rare: it came between two of them
            List<Waiter> all = new ArrayList<>(waiters);
            int at = 0;
            while (all.get(at).enqueuedAtMillis <= waiter.enqueuedAtMillis) {
                at++;
            }
            all.add(at, waiter);
            waiters.clear();
            waiters.addAll(all);
        }
        enter(queue);
    }

    private void enter(Tenant.Queue queue) {
        waiting++;
        if (!queue.inRing) {
            queue.inRing = true;
            queue.deficit = 0;
            ring.addLast(queue);
        }
    }

    /** Takes a waiter out of line (it was withdrawn or promoted); false if it was not here. */
    boolean remove(Waiter waiter) {
        Tenant.Queue queue = waiter.tenant.queue(priority);
        if (!queue.waiters.remove(waiter)) {
            return false;
        }
        waiting--;
        if (queue.waiters.isEmpty() && queue.inRing) {
            ring.remove(queue);
            leave(queue);
        }
        return true;
    }

    /**
     * The next waiter by the rotation, taken out of line; null when nobody waits or every waiting
     * tenant is at its running cap.
     */
    Waiter pick() {
        int passedOver = 0;
        while (passedOver < ring.size()) {
            Tenant.Queue queue = ring.peekFirst();
            if (!queue.tenant.mayRun()) {
                ring.addLast(ring.pollFirst());
                passedOver++;
                continue;
            }
            if (queue.deficit < 1) {
                queue.deficit += queue.weight();
            }
            Waiter waiter = queue.waiters.pollFirst();
            queue.deficit--;
            waiting--;
            if (queue.waiters.isEmpty()) {
                ring.pollFirst();
                leave(queue);
            } else if (queue.deficit < 1) {
                ring.addLast(ring.pollFirst());
            }
            return waiter;
        }
        return null;
    }

    private static void leave(Tenant.Queue queue) {
        queue.inRing = false;
        queue.deficit = 0;
    }

    /**
     * How many waiters of this class go before a run of {@code tenant} that has {@code ownAhead} of
     * its tenant's runs ahead of it in this class: those, plus from every other waiting tenant as many
     * as the rotation serves it while {@code tenant} is served {@code ownAhead + 1} times (its weight
     * over the asking tenant's), at most what it has waiting. Ignores running caps and deficits left
     * from the current round, so it is off by at most a round.
     */
    int aheadOf(Tenant tenant, int ownAhead) {
        long rounds = ownAhead + 1L;
        int weight = tenant.limits.weight();
        if (ring.size() > EXACT_ESTIMATE_TENANTS) {
            long others = Math.min(waiting - ownAhead, rounds * (ring.size() - 1));
            return (int) Math.min(Integer.MAX_VALUE, ownAhead + Math.max(0, others));
        }
        long ahead = ownAhead;
        for (Tenant.Queue queue : ring) {
            if (queue.tenant != tenant) {
                long share = (rounds * queue.weight() + weight - 1) / weight;
                ahead += Math.min(queue.waiters.size(), share);
            }
        }
        return (int) Math.min(Integer.MAX_VALUE, ahead);
    }

    /** The oldest waiter of {@code tenant} in this class, or null. */
    Waiter headOf(Tenant tenant) {
        return tenant.queue(priority).waiters.peekFirst();
    }

    /** How many of {@code tenant}'s waiters in this class came before {@code waiter}. */
    static int indexOf(Tenant.Queue queue, Waiter waiter) {
        int index = 0;
        for (Waiter w : queue.waiters) {
            if (w == waiter) {
                return index;
            }
            index++;
        }
        return index;
    }
}
