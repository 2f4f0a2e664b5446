package dev.laneway.core.scheduling;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;

/**
 * One tenant's runs at {@code main}: how many hold a slot, how many wait, and its waiters per class
 * (each a FIFO, the unit the fair share rotates over). Kept while the tenant has a run running or
 * waiting, and idle until a sweep. The running count changes atomically on any thread (a slot is
 * taken and given back without the scheduler's lock, docs/decisions.md D93); a sweep retires an idle
 * tenant by moving it from 0 to {@link #GONE}, after which {@link #addRunning} refuses and the caller
 * looks the tenant up anew. Everything else is guarded by the {@link MainScheduler}'s lock.
 */
final class Tenant {

    /** The running count of a tenant a sweep took out of the scheduler's map. */
    private static final int GONE = -1;
    private static final VarHandle RUNNING;

    static {
        try {
            RUNNING = MethodHandles.lookup().findVarHandle(Tenant.class, "running", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final String id;
    final TenantLimits limits;
    private volatile int running; // changed through RUNNING only
    int waiting;
    private final Queue[] queues = new Queue[PriorityClass.COUNT];

    Tenant(String id, TenantLimits limits) {
        this.id = id;
        this.limits = limits;
    }

    /** Its runs holding a slot. */
    int running() {
        return Math.max(0, running);
    }

    /** Whether it has a running cap of its own (then it is granted only under the scheduler's lock). */
    boolean capped() {
        return limits.maxRunning() != 0;
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
        return running <= 0 && waiting == 0;
    }

    /** One more of its runs holds a slot; false when a sweep has retired it (look it up again). */
    boolean addRunning() {
        while (true) {
            int now = running;
            if (now == GONE) {
                return false;
            }
            if (RUNNING.compareAndSet(this, now, now + 1)) {
                return true;
            }
        }
    }

    /** One of its runs gave its slot back. */
    void removeRunning() {
        RUNNING.getAndAdd(this, -1);
    }

    /** Retires the tenant if no run of it holds a slot (the scheduler's lock held, nothing waiting). */
    boolean retireIfIdle() {
        return RUNNING.compareAndSet(this, 0, GONE);
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
