package dev.laneway.core.scheduling;

import dev.laneway.core.lane.BriefLock;
import dev.laneway.core.lane.LanePermit;
import dev.laneway.core.lane.LaneSnapshot;
import dev.laneway.core.lane.Lanes;
import java.time.Duration;
import java.time.Instant;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLong;
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
 * <p>The same scheduler orders the waits for a provider pool's permits (docs/behaviour.md §12): there
 * its cap can change ({@link #setCap}, an adaptive limit), it can be paused until an instant
 * ({@link #pauseUntil}, a 429's {@code Retry-After}; its owner calls {@link #resume} when that
 * instant has come), and a run that must call again after a 429 asks at the head of its class
 * ({@link #acquireFirst}). A lower cap takes no slot back: runs holding one keep it, and nobody is
 * granted one until fewer than the cap are held.
 *
 * <p>Concurrency: the common case takes no lock (docs/decisions.md D93). {@code ctl} holds, in one
 * atomic word, the slots held and a copy of how many runs wait: a run asks {@link #acquireIfFree}
 * and takes a slot by one compare-and-set while nobody waits and a slot is free, and a run that
 * ends gives it back by one atomic add, taking the lock only when the word says someone waits. The
 * per-class counts ({@code runningByClass}), each tenant's running count and the mean run time are
 * atomics too; a tenant with a running cap of its own is granted only under the lock, so its cap
 * check and its count move together. Tenants live in a concurrent map; an idle one is swept only
 * under the lock, and only by moving its running count from 0 to a "gone" mark, which a late
 * grant's increment sees (it then looks the tenant up again). {@code lock} guards everything else
 * (the lines, the waiting count and its copy in {@code ctl}, every {@link Waiter}, each tenant's
 * waiting count and queues, the cap and the pause, which are also volatile for the lock-free
 * reads); a dispatch under it takes a slot from {@code ctl} before it picks a waiter, and gives it
 * back if nobody may run. Futures are completed outside the lock, so a run's continuation never
 * runs while the scheduler is locked. A waiter whose future was cancelled is taken out of line; one
 * cancelled between its grant and its completion gives its slot straight back.
 */
public final class MainScheduler {

    private static final Logger log = LoggerFactory.getLogger(MainScheduler.class);
    private static final String FIFO_TENANT = "all";
    /** Idle tenants kept (not swept) at least; see {@link #sweepIfGrown}. */
    private static final int IDLE_TENANTS_KEPT = 1024;
    /** {@code ctl}: the low 32 bits count the slots held, the high 32 bits copy {@code waiting}. */
    private static final long ONE_WAITING = 1L << 32;

    private final String name;
    private final SchedulingSettings settings;
    private final boolean fifo;
    private final long agingMillis;
    private final InstantSource clock;
    private final Duration warnAfter;
    private final SchedulingObserver observer;
    private final ReentrantLock lock = new BriefLock(); // every run passes through it: spin before parking

    /** Slots held (low 32 bits) and the copy of {@code waiting} (high 32 bits); see the class comment. */
    private final AtomicLong ctl = new AtomicLong();
    private final AtomicIntegerArray runningByClass = new AtomicIntegerArray(PriorityClass.COUNT);
    private final AtomicLong meanRunMillis;
    /** Tenant id -> tenant; an idle one is removed by a sweep (under the lock) only. */
    private final ConcurrentHashMap<String, Tenant> tenants = new ConcurrentHashMap<>();
    /** A tenant added beyond this many starts a sweep of the idle ones. */
    private volatile int sweepAbove = IDLE_TENANTS_KEPT;

    // written under lock; volatile for the lock-free reads
    private volatile int cap;
    /** No slot is granted before this instant (epoch millis); 0: not paused. */
    private volatile long pausedUntilMillis;

    // everything below: guarded by lock
    private int backgroundLimit;
    private int waiting;
    private final ClassQueue[] classes = new ClassQueue[PriorityClass.COUNT];
    /** Background waiters in the order they came (stale entries skipped lazily), for aging. */
    private final ArrayDeque<Waiter> backgroundByAge = new ArrayDeque<>();
    private final Map<String, Waiter> bySession = new HashMap<>();

    public MainScheduler(SchedulingSettings settings, int cap, InstantSource clock, Duration warnAfter,
                         SchedulingObserver observer) {
        this(Lanes.MAIN, settings, cap, clock, warnAfter, observer);
    }

    /**
     * A scheduler under another name than {@code main} (a provider pool's: its permits, snapshots and
     * long-wait log lines carry it).
     */
    public MainScheduler(String name, SchedulingSettings settings, int cap, InstantSource clock, Duration warnAfter,
                         SchedulingObserver observer) {
        if (cap < 1) {
            throw new IllegalArgumentException(name + ": cap must be >= 1, got " + cap);
        }
        this.name = name;
        this.settings = settings;
        this.fifo = settings.mode() == SchedulingSettings.Mode.FIFO;
        this.cap = cap;
        this.backgroundLimit = backgroundLimitOf(cap, settings);
        this.agingMillis = settings.agingAfter().toMillis();
        this.clock = clock;
        this.warnAfter = warnAfter;
        this.observer = observer;
        this.meanRunMillis = new AtomicLong(settings.initialRunTime().toMillis());
        for (PriorityClass priority : PriorityClass.values()) {
            classes[priority.ordinal()] = new ClassQueue(priority);
        }
    }

    public int cap() {
        return cap;
    }

    /** The lane name its permits carry ({@code main}, or a provider pool's). */
    public String name() {
        return name;
    }

    private static int backgroundLimitOf(int cap, SchedulingSettings settings) {
        return Math.max(1, (int) Math.floor(cap * settings.backgroundShare()));
    }

    /**
     * Changes the cap (an adaptive limit). A higher one hands the new slots to waiters at once; a
     * lower one takes no slot back, it only grants none until fewer than the new cap are held.
     */
    public void setCap(int newCap) {
        if (newCap < 1) {
            throw new IllegalArgumentException(name + ": cap must be >= 1, got " + newCap);
        }
        List<Grant> grants;
        lock.lock();
        try {
            cap = newCap;
            backgroundLimit = backgroundLimitOf(newCap, settings);
            grants = dispatchLocked(clock.millis());
        } finally {
            lock.unlock();
        }
        complete(grants);
    }

    /**
     * Grants nothing before {@code until} (a later pause wins over an earlier one). The owner must
     * call {@link #resume} at {@code until}: the scheduler keeps no timer.
     *
     * @return whether this moved the end of the pause (false when a pause at least as long was on)
     */
    public boolean pauseUntil(Instant until) {
        lock.lock();
        try {
            long at = until.toEpochMilli();
            if (at <= pausedUntilMillis) {
                return false;
            }
            pausedUntilMillis = at;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** The end of the pause, while one is on. */
    public Optional<Instant> pausedUntil() {
        lock.lock();
        try {
            return clock.millis() < pausedUntilMillis ? Optional.of(Instant.ofEpochMilli(pausedUntilMillis))
                    : Optional.empty();
        } finally {
            lock.unlock();
        }
    }

    /** Hands out the slots a pause held back, once its end has come (nothing before then). */
    public void resume() {
        List<Grant> grants;
        lock.lock();
        try {
            grants = dispatchLocked(clock.millis());
        } finally {
            lock.unlock();
        }
        complete(grants);
    }

    /**
     * A slot now, without a future, when one is free and nobody waits; null otherwise (the caller
     * then asks through {@link #acquire}).
     */
    public LanePermit acquireIfFree(Claim claim) {
        long now = clock.millis();
        if (!freeAt(ctl.get(), now)) {
            return null;
        }
        PriorityClass served = classOf(claim);
        Tenant tenant = tenantOf(claim);
        Permit permit = tenant.capped() ? acquireCapped(claim, served, now) : acquireUncapped(tenant, served, now);
        if (permit != null) {
            observer.granted(claim.priority(), permit.priority, permit.tenant.id, Duration.ZERO, Duration.ZERO);
        }
        return permit;
    }

    /** Whether a run asking now gets a slot at once: one is free, nobody waits, no pause (lock-free). */
    private boolean freeAt(long c, long now) {
        return runningOf(c) < cap && waitingOf(c) == 0 && now >= pausedUntilMillis;
    }

    private static int runningOf(long c) {
        return (int) c;
    }

    private static int waitingOf(long c) {
        return (int) (c >>> 32);
    }

    /** Takes a slot while one is free and nobody waits; false otherwise. No lock. */
    private boolean takeFreeSlot() {
        while (true) {
            long c = ctl.get();
            if (runningOf(c) >= cap || waitingOf(c) != 0) {
                return false;
            }
            if (ctl.compareAndSet(c, c + 1)) {
                return true;
            }
        }
    }

    /** The lock-free grant of a tenant without a running cap of its own (see the class comment). */
    private Permit acquireUncapped(Tenant tenant, PriorityClass served, long now) {
        if (!takeFreeSlot()) {
            return null;
        }
        while (!tenant.addRunning()) { // swept meanwhile: it is the tenant anew
            tenant = tenantOf(tenant.id);
        }
        runningByClass.incrementAndGet(served.ordinal());
        return new Permit(tenant, served, now);
    }

    /** The grant of a tenant with a running cap: its cap check and its count move together, under the lock. */
    private Permit acquireCapped(Claim claim, PriorityClass served, long now) {
        lock.lock();
        try {
            if (now < pausedUntilMillis) {
                return null;
            }
            Tenant tenant = tenantOf(claim); // under the lock: no sweep can take it now
            if (!tenant.mayRun() || !takeFreeSlot()) {
                return null;
            }
            return grantLocked(served, tenant, now);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Asks for a slot; the future completes with a permit when the run's turn comes. Cancelling it
     * before then withdraws the request.
     */
    public CompletableFuture<LanePermit> acquire(Claim claim) {
        return acquire(claim, false);
    }

    /**
     * Asks for a slot at the head of the claim's class: its tenant's first, and its tenant first in the
     * rotation. For a run that already had its turn and must call again (after a provider's 429), so it
     * keeps its place; not for a newcomer.
     */
    public CompletableFuture<LanePermit> acquireFirst(Claim claim) {
        return acquire(claim, true);
    }

    private CompletableFuture<LanePermit> acquire(Claim claim, boolean first) {
        Waiter waiter;
        List<Grant> grants;
        lock.lock();
        try {
            long now = clock.millis();
            PriorityClass priority = classOf(claim);
            Tenant tenant = tenantOf(claim);
            WaitEstimate estimate = first ? estimateLocked(priority, tenant, 0)
                    : estimateLocked(priority, tenant, tenant.queue(priority).waiters.size());
            waiter = new Waiter(claim, priority, tenant, now, estimate);
            if (first) {
                classes[priority.ordinal()].addFirst(waiter);
            } else {
                classes[priority.ordinal()].add(waiter);
            }
            if (priority == PriorityClass.BACKGROUND) {
                backgroundByAge.addLast(waiter);
            }
            tenant.waiting++;
            waiting++;
            ctl.addAndGet(ONE_WAITING);
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
        return freeAt(ctl.get(), clock.millis()); // no lock: a moment's answer, as it was once the lock was let go
    }

    /**
     * Where a run would stand if it asked now, for admission: runs ahead of it and the expected wait.
     * A tenant at its pending cap is reported by {@link #mayWait}, not here.
     */
    public WaitEstimate estimate(Claim claim) {
        lock.lock();
        try {
            PriorityClass priority = classOf(claim);
            String id = tenantIdOf(claim);
            Tenant tenant = tenants.get(id);
            if (tenant == null) {
                tenant = newTenant(id); // asked about, not kept: it has nothing running or waiting
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
        return Duration.ofMillis(meanRunMillis.get());
    }

    /** How many tenants it keeps now, idle ones included (for tests of the sweep). */
    int trackedTenants() {
        lock.lock();
        try {
            return tenants.size();
        } finally {
            lock.unlock();
        }
    }

    public LaneSnapshot laneSnapshot() {
        lock.lock();
        try {
            return new LaneSnapshot(name, cap, runningOf(ctl.get()), waiting);
        } finally {
            lock.unlock();
        }
    }

    public SchedulerSnapshot snapshot() {
        lock.lock();
        try {
            Map<PriorityClass, SchedulerSnapshot.Load> byClass = new EnumMap<>(PriorityClass.class);
            for (PriorityClass priority : PriorityClass.values()) {
                byClass.put(priority, new SchedulerSnapshot.Load(runningByClass.get(priority.ordinal()),
                        classes[priority.ordinal()].waiting()));
            }
            List<SchedulerSnapshot.TenantLoad> loads = new ArrayList<>(tenants.size());
            tenants.values().stream().filter(t -> !t.unused())
                    .forEach(t -> loads.add(new SchedulerSnapshot.TenantLoad(t.id, t.running(), t.waiting)));
            loads.sort(Comparator.comparingInt((SchedulerSnapshot.TenantLoad t) -> -(t.running() + t.waiting()))
                    .thenComparing(SchedulerSnapshot.TenantLoad::tenant));
            return new SchedulerSnapshot(settings.mode(), cap, runningOf(ctl.get()), waiting, Map.copyOf(byClass),
                    List.copyOf(loads), Duration.ofMillis(meanRunMillis.get()));
        } finally {
            lock.unlock();
        }
    }

    // ---- tenants (any thread) and inside the lock

    private PriorityClass classOf(Claim claim) {
        return fifo ? PriorityClass.NORMAL : claim.priority();
    }

    private String tenantIdOf(Claim claim) {
        return fifo ? FIFO_TENANT : claim.tenant();
    }

    private Tenant newTenant(String id) {
        return new Tenant(id, fifo ? TenantLimits.DEFAULT : settings.limitsOf(id));
    }

    private Tenant tenantOf(Claim claim) {
        return tenantOf(tenantIdOf(claim));
    }

    /** The tenant {@code id}, added if it is not kept (any thread; see {@link #sweepIfGrown}). */
    private Tenant tenantOf(String id) {
        Tenant tenant = tenants.get(id);
        if (tenant != null) {
            return tenant;
        }
        Tenant fresh = newTenant(id);
        tenant = tenants.putIfAbsent(id, fresh);
        if (tenant != null) {
            return tenant;
        }
        sweepIfGrown(fresh);
        return fresh;
    }

    /**
     * Forgets tenants with nothing running or waiting, but only once the map has doubled since the
     * last sweep (and holds more than {@link #IDLE_TENANTS_KEPT}): a tenant that comes and goes on
     * every run (a DM user) then costs no map insert and removal per run, and sweeps stay amortised
     * O(1) per run however many tenants are active. Runs when a tenant was added ({@code added},
     * which its caller is about to use, is kept). Snapshots leave idle tenants out.
     */
    private void sweepIfGrown(Tenant added) {
        if (tenants.size() <= sweepAbove) {
            return;
        }
        lock.lock();
        try {
            if (tenants.size() <= sweepAbove) {
                return; // another sweep came first
            }
            for (Tenant tenant : tenants.values()) {
                if (tenant != added && tenant.waiting == 0 && tenant.retireIfIdle()) {
                    tenants.remove(tenant.id, tenant);
                }
            }
            sweepAbove = Math.max(IDLE_TENANTS_KEPT, 2 * tenants.size());
        } finally {
            lock.unlock();
        }
    }

    private WaitEstimate estimateLocked(PriorityClass priority, Tenant tenant, int ownAhead) {
        long ahead = 0;
        for (int c = 0; c < priority.ordinal(); c++) {
            ahead += classes[c].waiting();
        }
        ahead += classes[priority.ordinal()].aheadOf(tenant, ownAhead);
        int free = cap - runningOf(ctl.get());
        int queued = (int) Math.min(Integer.MAX_VALUE, ahead);
        long pausedMillis = Math.max(0, pausedUntilMillis - clock.millis());
        long meanRun = meanRunMillis.get();
        if (ahead < free && tenant.mayRun()) {
            return new WaitEstimate(queued, Duration.ofMillis(pausedMillis));
        }
        // slots free one at a time, about every meanRun / cap; it needs (ahead - free + 1) of them
        long slots = Math.max(1, ahead - Math.max(0, free) + 1);
        return new WaitEstimate(queued, Duration.ofMillis(pausedMillis + slots * meanRun / cap));
    }

    /**
     * The permit for a slot already taken from {@code ctl} (lock held: the tenant is kept, it has a
     * run waiting or was looked up under the lock, so no sweep takes it).
     */
    private Permit grantLocked(PriorityClass served, Tenant tenant, long now) {
        runningByClass.incrementAndGet(served.ordinal());
        if (!tenant.addRunning()) {
            throw new IllegalStateException(name + ": tenant " + tenant.id + " was swept while in use");
        }
        return new Permit(tenant, served, now);
    }

    /** Takes a slot for a waiter (lock held, somebody waits); false when none is free. */
    private boolean takeSlotForWaiter() {
        while (true) {
            long c = ctl.get();
            if (runningOf(c) >= cap) {
                return false;
            }
            if (ctl.compareAndSet(c, c + 1)) {
                return true;
            }
        }
    }

    /**
     * Hands free slots to waiters, by class, rotation and caps (see the class comment). A slot is
     * taken before the waiter is picked, and given back when every waiting tenant is at its cap.
     */
    private List<Grant> dispatchLocked(long now) {
        List<Grant> grants = null;
        while (waiting > 0 && now >= pausedUntilMillis && takeSlotForWaiter()) {
            promoteAged(now);
            Waiter next = pickLocked();
            if (next == null) {
                ctl.decrementAndGet(); // nobody may run: the slot goes back (the waiters' tenants are at their caps)
                break;
            }
            next.waiting = false;
            waiting--;
            ctl.addAndGet(-ONE_WAITING);
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
            if (c == PriorityClass.BACKGROUND.ordinal() && runningByClass.get(c) >= backgroundLimit
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
            ctl.addAndGet(-ONE_WAITING);
            waiter.tenant.waiting--;
            bySession.remove(waiter.claim.session(), waiter);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Gives a slot back without the lock; only when somebody waits does it take the lock to hand
     * the free slot on. The tenant's and the class's counts go down before the slot does, so a
     * dispatch that finds the slot free finds the tenant's cap free too.
     */
    private void release(Permit permit) {
        long now = clock.millis();
        permit.tenant.removeRunning();
        runningByClass.decrementAndGet(permit.priority.ordinal());
        long held = Math.max(0, now - permit.grantedAtMillis);
        meanRunMillis.getAndUpdate(mean -> mean + (held - mean) / 8);
        if (waitingOf(ctl.decrementAndGet()) == 0) {
            return;
        }
        List<Grant> grants;
        lock.lock();
        try {
            grants = dispatchLocked(now);
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
                log.warn("lane wait exceeded: lane={} waitedMs={} queuedAhead={} class={}", name, waitedMs,
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
            return name;
        }

        @Override
        public void close() {
            if (CLOSED.compareAndSet(this, 0, 1)) {
                release(this);
            }
        }
    }
}
