package dev.laneway.core.scheduling;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;

/**
 * One tenant's runs at {@code main}: how many hold a slot, how many wait, and its waiters per class
 * (each a FIFO, the unit the fair share rotates over). Exists while the tenant has a run running or
 * waiting, or holds fleet permits, and idle until a sweep. In a fleet whose tenant caps are
 * fleet-wide, a tenant with a {@code maxRunning} is gated: besides its own cap it runs no more at
 * once than its allowance, the {@code tenant:<id>} fleet permits this instance holds
 * (docs/behaviour.md §11.2, §17).
 *
 * <p>Concurrency: guarded by the {@link MainScheduler}'s lock, except {@code running},
 * {@code lastGrantMillis} and {@code returning} (volatile: set when a session's claim comes back for
 * the tenant after a sweep, without the lock; such a tenant is kept while it was granted within the
 * last 90 s, docs/decisions.md D237). {@code running} changes atomically: a tenant without a running cap of its
 * own takes and gives back slots without the lock while the scheduler is not gated (docs/decisions.md
 * D236); a capped one only under it. A sweep (under the lock, with nothing of the tenant waiting)
 * retires an idle tenant by moving {@code running} from 0 to {@link #GONE}; {@link #addRunning} then
 * refuses and the caller looks the tenant up anew, so no run is counted in a tenant the scheduler no
 * longer keeps. {@code lastGrantMillis} is written at each grant, read by the sweep.
 */
final class Tenant {

    /** The allowance of a tenant that is not gated: unlimited. */
    static final int UNGATED = Integer.MAX_VALUE;
    /** The running count of a tenant a sweep took out of the scheduler's map. */
    private static final int GONE = -1;
    private static final VarHandle RUNNING;
    private static final VarHandle LAST_GRANT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            RUNNING = lookup.findVarHandle(Tenant.class, "running", int.class);
            LAST_GRANT = lookup.findVarHandle(Tenant.class, "lastGrantMillis", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final String id;
    final TenantLimits limits;
    /** The scheduler that keeps it (a {@link Claim} remembers a tenant of one scheduler only). */
    final MainScheduler owner;
    /** Its runs holding a slot, or {@link #GONE}; changed through {@link #RUNNING} only. */
    private volatile int running;
    int waiting;
    /** Fleet permits held for it (gated), else {@link #UNGATED}. */
    int allowance;
    /** A session's claim came back for it after a sweep: kept while it was granted recently (D237). */
    volatile boolean returning;
    /** When it was last granted a slot (epoch millis); written opaque. */
    @SuppressWarnings("unused") // through LAST_GRANT
    private long lastGrantMillis;
    private Queue[] queues;

    Tenant(String id, TenantLimits limits, boolean gated, MainScheduler owner) {
        this.id = id;
        this.limits = limits;
        this.owner = owner;
        this.allowance = gated && limits.maxRunning() > 0 ? 0 : UNGATED;
    }

    boolean gated() {
        return allowance != UNGATED;
    }

    /** Whether it has a running cap of its own (then it takes and gives back slots only under the lock). */
    boolean capped() {
        return limits.maxRunning() != 0;
    }

    /** Its runs holding a slot. */
    int running() {
        return Math.max(0, running);
    }

    /** Whether a sweep has retired it. */
    boolean gone() {
        return running == GONE;
    }

    /** One more of its runs holds a slot, granted at {@code now}; false when a sweep has retired it (look it up again). */
    boolean addRunning(long now) {
        while (true) {
            int count = running;
            if (count == GONE) {
                return false;
            }
            if (RUNNING.compareAndSet(this, count, count + 1)) {
                LAST_GRANT.setOpaque(this, now);
                return true;
            }
        }
    }

    /** One of its runs gave its slot back (or a grant was undone). */
    void removeRunning() {
        RUNNING.getAndAdd(this, -1);
    }

    /**
     * Retires it if nothing of it runs, waits or holds fleet permits and, when a session's claim came
     * back for it ({@link #returning}), it was last granted {@code keepMillis} or more before
     * {@code now}. The scheduler's lock held.
     */
    boolean retireIfIdle(long now, long keepMillis) {
        if (waiting != 0 || !(allowance == 0 || allowance == UNGATED)) {
            return false;
        }
        if (returning && now - (long) LAST_GRANT.getOpaque(this) < keepMillis) {
            return false;
        }
        return RUNNING.compareAndSet(this, 0, GONE);
    }

    /** May another of its runs take a slot now (its own running cap, and its fleet permits when gated)? */
    boolean mayRun() {
        return limits.maxRunning() == 0 || running() < Math.min(limits.maxRunning(), allowance);
    }

    /** Its waiting runs that its caps hold back now (they could not take a slot were one free). */
    int heldBack() {
        if (limits.maxRunning() == 0) {
            return 0;
        }
        int room = Math.max(0, Math.min(limits.maxRunning(), allowance) - running());
        return Math.max(0, waiting - room);
    }

    /** Gated: how many more fleet permits its runs could use than it holds. */
    int allowanceWanted() {
        return gated() ? Math.max(0, Math.min(limits.maxRunning(), running() + waiting) - allowance) : 0;
    }

    /** Is another of its runs allowed to wait (its own pending cap)? */
    boolean mayWait() {
        return limits.maxPending() == 0 || waiting < limits.maxPending();
    }

    boolean unused() {
        return running() == 0 && waiting == 0 && (allowance == 0 || allowance == UNGATED);
    }

    Queue queue(PriorityClass priority) {
        if (queues == null) {
            queues = new Queue[PriorityClass.COUNT]; // only once one of its runs waits or is estimated
        }
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
