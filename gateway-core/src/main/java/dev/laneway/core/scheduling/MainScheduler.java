package dev.laneway.core.scheduling;

import dev.laneway.core.lane.LanePermit;
import dev.laneway.core.lane.LaneSnapshot;
import dev.laneway.core.lane.Lanes;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code main} lane as a scheduler (docs/behaviour.md §11): a cap on runs holding a slot, and
 * who gets the next free one. In {@link SchedulingSettings.Mode#FAIR} a higher class goes first
 * (interactive, normal, background); within a class tenants share by deficit round robin with
 * weights ({@link ClassQueue}); a tenant at its running cap is passed over; a background run that has
 * waited longer than the aging bound moves up to normal, so nothing starves; background is granted
 * a slot beyond its share only when nobody else waits. In {@link SchedulingSettings.Mode#FIFO} every
 * run is one class and one tenant: a flat first-come line (the behaviour before scheduling existed).
 *
 * <p>It also estimates waits: the runs ahead of a run (higher classes, then what the rotation serves
 * first) spread over the slots at the observed run time (a moving average of how long runs hold a
 * slot, weight 1/8).
 *
 * <p>Concurrency: {@code lock} guards every field but the immutable settings, and every
 * {@link Waiter} and {@link Tenant} it holds. Futures are completed outside the lock, so a run's
 * continuation never runs while the scheduler is locked. A waiter whose future was cancelled is taken
 * out of line; one cancelled between its grant and its completion gives its slot straight back.
 */
public final class MainScheduler {

    private static final Logger log = LoggerFactory.getLogger(MainScheduler.class);
    private static final String FIFO_TENANT = "all";

    private final SchedulingSettings settings;
    private final boolean fifo;
    private final int cap;
    private final int backgroundLimit;
    private final long agingMillis;
    private final InstantSource clock;
    private final Duration warnAfter;
    private final SchedulingObserver observer;
    private final ReentrantLock lock = new ReentrantLock();

    // everything below: guarded by lock
    private int running;
    private int waiting;
    private final int[] runningByClass = new int[PriorityClass.COUNT];
    private final ClassQueue[] classes = new ClassQueue[PriorityClass.COUNT];
    /** Background waiters in the order they came (stale entries skipped lazily), for aging. */
    private final ArrayDeque<Waiter> backgroundByAge = new ArrayDeque<>();
    private final Map<String, Tenant> tenants = new HashMap<>();
    private final Map<String, Waiter> bySession = new HashMap<>();
    private long meanRunMillis;

    public MainScheduler(SchedulingSettings settings, int cap, InstantSource clock, Duration warnAfter,
                         SchedulingObserver observer) {
        if (cap < 1) {
            throw new IllegalArgumentException("main: cap must be >= 1, got " + cap);
        }
        this.settings = settings;
        this.fifo = settings.mode() == SchedulingSettings.Mode.FIFO;
        this.cap = cap;
        this.backgroundLimit = Math.max(1, (int) Math.floor(cap * settings.backgroundShare()));
        this.agingMillis = settings.agingAfter().toMillis();
        this.clock = clock;
        this.warnAfter = warnAfter;
        this.observer = observer;
        this.meanRunMillis = settings.initialRunTime().toMillis();
        for (PriorityClass priority : PriorityClass.values()) {
            classes[priority.ordinal()] = new ClassQueue(priority);
        }
    }

    public int cap() {
        return cap;
    }

    /**
     * A slot now, without a future, when one is free and nobody waits; null otherwise (the caller
     * then asks through {@link #acquire}).
     */
    public LanePermit acquireIfFree(Claim claim) {
        Permit permit;
        lock.lock();
        try {
            if (running >= cap || waiting > 0) {
                return null;
            }
            Tenant tenant = tenantOf(claim);
            if (!tenant.mayRun()) {
                forgetIfUnused(tenant);
                return null;
            }
            permit = grantLocked(classOf(claim), tenant, clock.millis());
        } finally {
            lock.unlock();
        }
        observer.granted(claim.priority(), permit.priority, permit.tenant.id, Duration.ZERO, Duration.ZERO);
        return permit;
    }

    /**
     * Asks for a slot; the future completes with a permit when the run's turn comes. Cancelling it
     * before then withdraws the request.
     */
    public CompletableFuture<LanePermit> acquire(Claim claim) {
        Waiter waiter;
        List<Grant> grants;
        lock.lock();
        try {
            long now = clock.millis();
            PriorityClass priority = classOf(claim);
            Tenant tenant = tenantOf(claim);
            WaitEstimate estimate = estimateLocked(priority, tenant, tenant.queue(priority).waiters.size());
            waiter = new Waiter(claim, priority, tenant, now, estimate);
            classes[priority.ordinal()].add(waiter);
            if (priority == PriorityClass.BACKGROUND) {
                backgroundByAge.addLast(waiter);
            }
            tenant.waiting++;
            waiting++;
            bySession.put(claim.session(), waiter);
            grants = dispatchLocked(now);
        } finally {
            lock.unlock();
        }
        Waiter queued = waiter;
        waiter.future.whenComplete((permit, error) -> {
            if (queued.future.isCancelled()) {
                withdraw(queued);
            }
        });
        complete(grants);
        return waiter.future;
    }

    /** Whether a run asking now would get a slot at once: one is free and nobody waits. No allocation. */
    public boolean freeNow() {
        lock.lock();
        try {
            return running < cap && waiting == 0;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Where a run would stand if it asked now, for admission: runs ahead of it and the expected wait.
     * A tenant at its pending cap is reported by {@link #mayWait}, not here.
     */
    public WaitEstimate estimate(Claim claim) {
        lock.lock();
        try {
            PriorityClass priority = classOf(claim);
            Tenant tenant = tenants.get(fifo ? FIFO_TENANT : claim.tenant());
            if (tenant == null) {
                tenant = new Tenant(claim.tenant(), fifo ? TenantLimits.DEFAULT : settings.limitsOf(claim.tenant()));
            }
            return estimateLocked(priority, tenant, tenant.queue(priority).waiters.size());
        } finally {
            lock.unlock();
        }
    }

    /** Whether another run of the claim's tenant may wait (its pending cap); always true in fifo. */
    public boolean mayWait(Claim claim) {
        if (fifo) {
            return true;
        }
        lock.lock();
        try {
            Tenant tenant = tenants.get(claim.tenant());
            return tenant == null || tenant.mayWait();
        } finally {
            lock.unlock();
        }
    }

    /** Where the waiting run of {@code session} stands now; empty when it does not wait for {@code main}. */
    public Optional<WaitEstimate> waitingRun(String session) {
        lock.lock();
        try {
            Waiter waiter = bySession.get(session);
            if (waiter == null || !waiter.waiting) {
                return Optional.empty();
            }
            Tenant.Queue queue = waiter.tenant.queue(waiter.priority);
            return Optional.of(estimateLocked(waiter.priority, waiter.tenant, ClassQueue.indexOf(queue, waiter)));
        } finally {
            lock.unlock();
        }
    }

    /** The observed mean time a run holds a slot (the initial guess until a run ended). */
    public Duration meanRunTime() {
        lock.lock();
        try {
            return Duration.ofMillis(meanRunMillis);
        } finally {
            lock.unlock();
        }
    }

    public LaneSnapshot laneSnapshot() {
        lock.lock();
        try {
            return new LaneSnapshot(Lanes.MAIN, cap, running, waiting);
        } finally {
            lock.unlock();
        }
    }

    public SchedulerSnapshot snapshot() {
        lock.lock();
        try {
            Map<PriorityClass, SchedulerSnapshot.Load> byClass = new EnumMap<>(PriorityClass.class);
            for (PriorityClass priority : PriorityClass.values()) {
                byClass.put(priority, new SchedulerSnapshot.Load(runningByClass[priority.ordinal()],
                        classes[priority.ordinal()].waiting()));
            }
            List<SchedulerSnapshot.TenantLoad> loads = new ArrayList<>(tenants.size());
            tenants.values().forEach(t -> loads.add(new SchedulerSnapshot.TenantLoad(t.id, t.running, t.waiting)));
            loads.sort(Comparator.comparingInt((SchedulerSnapshot.TenantLoad t) -> -(t.running() + t.waiting()))
                    .thenComparing(SchedulerSnapshot.TenantLoad::tenant));
            return new SchedulerSnapshot(settings.mode(), cap, running, waiting, Map.copyOf(byClass), List.copyOf(loads),
                    Duration.ofMillis(meanRunMillis));
        } finally {
            lock.unlock();
        }
    }

    // ---- inside the lock

    private PriorityClass classOf(Claim claim) {
        return fifo ? PriorityClass.NORMAL : claim.priority();
    }

    private Tenant tenantOf(Claim claim) {
        String id = fifo ? FIFO_TENANT : claim.tenant();
        Tenant tenant = tenants.get(id);
        if (tenant == null) {
            tenant = new Tenant(id, fifo ? TenantLimits.DEFAULT : settings.limitsOf(id));
            tenants.put(id, tenant);
        }
        return tenant;
    }

    private void forgetIfUnused(Tenant tenant) {
        if (tenant.unused()) {
            tenants.remove(tenant.id, tenant);
        }
    }

    private WaitEstimate estimateLocked(PriorityClass priority, Tenant tenant, int ownAhead) {
        long ahead = 0;
        for (int c = 0; c < priority.ordinal(); c++) {
            ahead += classes[c].waiting();
        }
        ahead += classes[priority.ordinal()].aheadOf(tenant, ownAhead);
        int free = cap - running;
        int queued = (int) Math.min(Integer.MAX_VALUE, ahead);
        if (ahead < free && tenant.mayRun()) {
            return new WaitEstimate(queued, Duration.ZERO);
        }
        // slots free one at a time, about every meanRun / cap; it needs (ahead - free + 1) of them
        long slots = Math.max(1, ahead - Math.max(0, free) + 1);
        return new WaitEstimate(queued, Duration.ofMillis(slots * meanRunMillis / cap));
    }

    private Permit grantLocked(PriorityClass served, Tenant tenant, long now) {
        running++;
        runningByClass[served.ordinal()]++;
        tenant.running++;
        return new Permit(tenant, served, now);
    }

    /** Hands free slots to waiters, by class, rotation and caps (see the class comment). */
    private List<Grant> dispatchLocked(long now) {
        List<Grant> grants = null;
        while (running < cap && waiting > 0) {
            promoteAged(now);
            Waiter next = pickLocked();
            if (next == null) {
                break;
            }
            next.waiting = false;
            waiting--;
            next.tenant.waiting--;
            bySession.remove(next.claim.session(), next);
            Permit permit = grantLocked(next.priority, next.tenant, now);
            if (grants == null) {
                grants = new ArrayList<>(2);
            }
            grants.add(new Grant(next, permit));
        }
        return grants;
    }

    private Waiter pickLocked() {
        for (int c = 0; c < PriorityClass.COUNT; c++) {
            ClassQueue queue = classes[c];
            if (queue.waiting() == 0) {
                continue;
            }
            if (c == PriorityClass.BACKGROUND.ordinal() && runningByClass[c] >= backgroundLimit
                    && waiting > queue.waiting()) {
                continue; // others wait (held back by their tenants' caps): background keeps to its share
            }
            Waiter next = queue.pick();
            if (next != null) {
                return next;
            }
        }
        return null;
    }

    /** Moves background waiters that waited longer than the aging bound up to normal. */
    private void promoteAged(long now) {
        while (!backgroundByAge.isEmpty()) {
            Waiter oldest = backgroundByAge.peekFirst();
            if (!oldest.waiting || oldest.priority != PriorityClass.BACKGROUND) {
                backgroundByAge.pollFirst(); // granted or withdrawn meanwhile
                continue;
            }
            if (now - oldest.enqueuedAtMillis < agingMillis) {
                return;
            }
            backgroundByAge.pollFirst();
            PriorityClass to = oldest.priority.promoted();
            classes[oldest.priority.ordinal()].remove(oldest);
            oldest.priority = to;
            classes[to.ordinal()].addByAge(oldest);
            observer.promoted(PriorityClass.BACKGROUND, to);
        }
    }

    private void withdraw(Waiter waiter) {
        lock.lock();
        try {
            if (!waiter.waiting) {
                return;
            }
            waiter.waiting = false;
            classes[waiter.priority.ordinal()].remove(waiter);
            waiting--;
            waiter.tenant.waiting--;
            bySession.remove(waiter.claim.session(), waiter);
            forgetIfUnused(waiter.tenant);
        } finally {
            lock.unlock();
        }
    }

    private void release(Permit permit) {
        List<Grant> grants;
        lock.lock();
        try {
            long now = clock.millis();
            running--;
            runningByClass[permit.priority.ordinal()]--;
            permit.tenant.running--;
            long held = Math.max(0, now - permit.grantedAtMillis);
            meanRunMillis += (held - meanRunMillis) / 8;
            grants = dispatchLocked(now);
            forgetIfUnused(permit.tenant);
        } finally {
            lock.unlock();
        }
        complete(grants);
    }

    /** Completes the grants' futures (outside the lock); a cancelled one gives its slot straight back. */
    private void complete(List<Grant> grants) {
        if (grants == null) {
            return;
        }
        long now = clock.millis();
        for (Grant grant : grants) {
            Waiter waiter = grant.waiter;
            if (!waiter.future.complete(grant.permit)) {
                grant.permit.close();
                continue;
            }
            long waitedMs = Math.max(0, now - waiter.enqueuedAtMillis);
            if (waitedMs > warnAfter.toMillis()) {
                log.warn("lane wait exceeded: lane={} waitedMs={} queuedAhead={} class={}", Lanes.MAIN, waitedMs,
                        waiter.aheadAtEnqueue, waiter.priority.configName());
            }
            observer.granted(waiter.claim.priority(), waiter.priority, waiter.tenant.id, Duration.ofMillis(waitedMs),
                    Duration.ofMillis(waiter.estimatedWaitMillis));
        }
    }

    private record Grant(Waiter waiter, Permit permit) {
    }

    private final class Permit implements LanePermit {
        private static final AtomicIntegerFieldUpdater<Permit> CLOSED =
                AtomicIntegerFieldUpdater.newUpdater(Permit.class, "closed");
        private final Tenant tenant;
        private final PriorityClass priority;
        private final long grantedAtMillis;
        private volatile int closed;

        Permit(Tenant tenant, PriorityClass priority, long grantedAtMillis) {
            this.tenant = tenant;
            this.priority = priority;
            this.grantedAtMillis = grantedAtMillis;
        }

        @Override
        public String lane() {
            return Lanes.MAIN;
        }

        @Override
        public void close() {
            if (CLOSED.compareAndSet(this, 0, 1)) {
                release(this);
            }
        }
    }
}
