package dev.laneway.core.scheduling;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * One tenant's runs at {@code main}: how many hold a slot, how many wait, and its waiters per class
 * (each a FIFO, the unit the fair share rotates over). Exists while the tenant has a run running or
 * waiting. Guarded by the {@link MainScheduler}'s lock, except {@code running}: it goes up under
 * that lock and down anywhere (a slot given back takes no lock; docs/decisions.md D217).
 */
final class Tenant {

    private static final AtomicIntegerFieldUpdater<Tenant> RUNNING =
            AtomicIntegerFieldUpdater.newUpdater(Tenant.class, "running");

    final String id;
    final TenantLimits limits;
    private volatile int running;
    int waiting;
    private final Queue[] queues = new Queue[PriorityClass.COUNT];

    Tenant(String id, TenantLimits limits) {
        this.id = id;
        this.limits = limits;
    }

    /** Its runs holding a slot. */
    int running() {
        return running;
    }

    /** One more of its runs holds a slot (the scheduler's lock held). */
    void runningUp() {
        RUNNING.incrementAndGet(this);
    }

    /** One of its runs gave its slot back (any thread). */
    void runningDown() {
        RUNNING.decrementAndGet(this);
    }

    /** May another of its runs take a slot now (its own running cap)? */
    boolean mayRun() {
        return limits.maxRunning() == 0 || running < limits.maxRunning();
    }

    /** Is another of its runs allowed to wait (its own pending cap)? */
    boolean mayWait() {
        return limits.maxPending() == 0 || waiting < limits.maxPending();
    }

    boolean unused() {
        return running == 0 && waiting == 0;
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
