package dev.laneway.core.scheduling;

import java.util.ArrayDeque;

/**
 * One tenant's runs at {@code main}: how many hold a slot, how many wait, and its waiters per class
 * (each a FIFO, the unit the fair share rotates over). Exists while the tenant has a run running or
 * waiting, or holds fleet permits. In a fleet whose tenant caps are fleet-wide, a tenant with a
 * {@code maxRunning} is gated: besides its own cap it runs no more at once than its allowance, the
 * {@code tenant:<id>} fleet permits this instance holds (docs/behaviour.md §11.2, §17). Guarded by
 * the {@link MainScheduler}'s lock.
 */
final class Tenant {

    /** The allowance of a tenant that is not gated: unlimited. */
    static final int UNGATED = Integer.MAX_VALUE;

    final String id;
    final TenantLimits limits;
    int running;
    int waiting;
    /** Fleet permits held for it (gated), else {@link #UNGATED}. */
    int allowance;
    private final Queue[] queues = new Queue[PriorityClass.COUNT];

    Tenant(String id, TenantLimits limits, boolean gated) {
        this.id = id;
        this.limits = limits;
        this.allowance = gated && limits.maxRunning() > 0 ? 0 : UNGATED;
    }

    boolean gated() {
        return allowance != UNGATED;
    }

    /** May another of its runs take a slot now (its own running cap, and its fleet permits when gated)? */
    boolean mayRun() {
        return limits.maxRunning() == 0 || running < Math.min(limits.maxRunning(), allowance);
    }

    /** Its waiting runs that its caps hold back now (they could not take a slot were one free). */
    int heldBack() {
        if (limits.maxRunning() == 0) {
            return 0;
        }
        int room = Math.max(0, Math.min(limits.maxRunning(), allowance) - running);
        return Math.max(0, waiting - room);
    }

    /** Gated: how many more fleet permits its runs could use than it holds. */
    int allowanceWanted() {
        return gated() ? Math.max(0, Math.min(limits.maxRunning(), running + waiting) - allowance) : 0;
    }

    /** Is another of its runs allowed to wait (its own pending cap)? */
    boolean mayWait() {
        return limits.maxPending() == 0 || waiting < limits.maxPending();
    }

    boolean unused() {
        return running == 0 && waiting == 0 && (allowance == 0 || allowance == UNGATED);
    }

    Queue queue(PriorityClass priority) {
        Queue queue = queues[priority.ordinal()];
        if (queue == null) {
            queue = new Queue(this);
            queues[priority.ordinal()] = queue;
        }
        return queue;
    }

    /** The tenant's waiters of one class, oldest first, and its deficit in that class's rotation. */
    static final class Queue {
        final Tenant tenant;
        final ArrayDeque<Waiter> waiters = new ArrayDeque<>(4);
        /** Runs it may still take in the current round of the rotation (deficit round robin). */
        int deficit;
        boolean inRing;

        Queue(Tenant tenant) {
            this.tenant = tenant;
        }

        int weight() {
            return tenant.limits.weight();
        }
    }
}
