package dev.laneway.core.scheduling;

import dev.laneway.core.lane.BriefLock;
import dev.laneway.core.lane.LanePermit;
import dev.laneway.core.lane.LaneSnapshot;
import dev.laneway.core.lane.Lanes;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
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
 * <p>The same scheduler orders the waits for a provider pool's permits (docs/behaviour.md §12): there
 * its cap can change ({@link #setCap}, an adaptive limit), it can be paused until an instant
 * ({@link #pauseUntil}, a 429's {@code Retry-After}; its owner calls {@link #resume} when that
 * instant has come), and a run that must call again after a 429 asks at the head of its class
 * ({@link #acquireFirst}). A lower cap takes no slot back: runs holding one keep it, and nobody is
 * granted one until fewer than the cap are held.
 *
 * <p>In a fleet the scheduler can be gated ({@link #gateBy}): then it grants no more slots at once
 * than its allowance, the fleet-wide permits this instance holds (docs/architecture.md §7.1). It
 * still decides who is next, by classes and fair share as above; the allowance only says whether
 * a grant may happen now. The gate's owner ({@code FleetAllowance}) hears when the demand changes,
 * takes or gives back fleet permits outside the lock, and adds to or trims the allowance here.
 * Ungated (one instance) the allowance is unlimited and nothing is told. Gated with its caps
 * ({@link #gateWithCapsBy}, {@code main} in a fleet), tenant running caps and the background share
 * are fleet-wide too: a tenant with a {@code maxRunning} runs no more at once than the
 * {@code tenant:<id>} permits held for it here ({@link #capGate}), and while other runs wait,
 * background runs hold no more slots than the {@code class:background} permits held here (up to
 * the share; docs/behaviour.md §11, §17). A waiting run its tenant's caps hold back is not counted
 * in the demand for {@code main}'s allowance, so no fleet permit is held idle for it.
 *
 * <p>Concurrency: {@code lock} guards the lines (every {@link Waiter}, the class queues, the
 * background ages, the session index), each tenant's waiting count, queues and fleet permits, the
 * background share and its permits, and every write of the cap, the pause, the allowance and the
 * fair-share ceiling (volatile, for the reads below). The slots held and the runs waiting are one
 * atomic word ({@code ctl}), the slots held per class and per tenant are atomic counts, the mean run
 * time is changed by compare-and-set, and tenants live in a concurrent map, so that in the common
 * case a run takes no lock (docs/decisions.md D236): while the scheduler is not gated (no
 * {@link DemandListener}), {@link #freeNow} reads the volatile state, and a run of a tenant without a
 * running cap of its own ({@link Tenant#capped}) takes a free slot by a compare-and-set of
 * {@code ctl} that succeeds only while nobody waits, and gives it back by one atomic add. Everything
 * else takes the lock as before: a gated scheduler (every grant, release and question, so the
 * fleet's allowance, caps and demand notices are decided exactly as without the lock-free case), a
 * capped tenant's grants and releases (its cap check and its count move together), queuing,
 * withdrawing, handing slots to waiters, pauses, cap and allowance changes, snapshots and estimates.
 * No waiter is left behind a free slot: a run queues by raising the waiting half of {@code ctl}
 * under the lock and then dispatching, and a lock-free release lowers the slot half and reads the
 * waiting half in the same atomic add, taking the lock to dispatch when someone waits; while anyone
 * waits no lock-free grant succeeds, so a dispatch sees slots held only fall. A grant raises its
 * class's and tenant's counts before it takes the slot (undoing them, and dispatching if someone now
 * waits, when it loses the race), a release lowers them before it gives the slot back, so a dispatch
 * that finds a slot free finds the counts of the run that left it lowered. Idle tenants are swept
 * under the lock when a tenant is added past the bound (see {@link #sweepIfGrown}); the sweep retires
 * a tenant by a mark a late lock-free grant sees ({@link Tenant#addRunning}). A {@link Claim}
 * remembers the tenant it resolved to (a volatile cache, checked for that mark; D237). Futures are completed
 * outside the lock, so a run's continuation never runs while the scheduler is locked. A waiter whose
 * future was cancelled is taken out of line; one cancelled between its grant and its completion
 * gives its slot straight back.
 */
public final class MainScheduler implements AllowanceGate {

    private static final Logger log = LoggerFactory.getLogger(MainScheduler.class);
    private static final String FIFO_TENANT = "all";
    /** The fleet-wide cap of one tenant's runs is called this, then the tenant's id. */
    public static final String TENANT_CAP = "tenant:";
    /** The fleet-wide cap of background runs while others wait (the background share). */
    public static final String BACKGROUND_CAP = "class:background";
    /** Idle tenants kept (not swept) at least; see {@link #sweepIfGrown}. */
    private static final int IDLE_TENANTS_KEPT = 1024;
    /**
     * A tenant a session's claim came back for after a sweep is kept this long after its last grant:
     * the minute a session rests plus the half minute between their sweeps (D216), so the tenants of
     * resting sessions are kept while those sessions are (D237).
     */
    static final long RETURNING_KEPT_MILLIS = 90_000;
    /** {@code ctl}: the low 32 bits count the slots held, the high 32 bits the runs waiting. */
    private static final long ONE_WAITING = 1L << 32;
    private static final VarHandle CTL;
    private static final VarHandle MEAN_RUN;
    private static final VarHandle RUNNING_INTERACTIVE;
    private static final VarHandle RUNNING_NORMAL;
    private static final VarHandle RUNNING_BACKGROUND;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            CTL = lookup.findVarHandle(MainScheduler.class, "ctl", long.class);
            MEAN_RUN = lookup.findVarHandle(MainScheduler.class, "meanRunMillis", long.class);
            RUNNING_INTERACTIVE = lookup.findVarHandle(MainScheduler.class, "runningInteractive", int.class);
            RUNNING_NORMAL = lookup.findVarHandle(MainScheduler.class, "runningNormal", int.class);
            RUNNING_BACKGROUND = lookup.findVarHandle(MainScheduler.class, "runningBackground", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String name;
    private final SchedulingSettings settings;
    private final boolean fifo;
    private final long agingMillis;
    private final InstantSource clock;
    private final Duration warnAfter;
    private final SchedulingObserver observer;
    private final ReentrantLock lock = new BriefLock(); // spins before parking (see the class comment for when it is taken)

    /**
     * Slots held (low 32 bits) and runs waiting (high 32 bits) in one word, so a lock-free grant takes
     * a slot only while nobody waits; changed through {@link #CTL} (the waiting half under lock only).
     */
    private volatile long ctl;
    /**
     * Slots held per class (interactive, normal, background): up before a slot is taken in {@code ctl},
     * down before it is given back; fields beside {@code ctl} rather than an array of their own, so a
     * grant or release writes fewer shared cache lines. Changed through {@link #classRuns}.
     */
    private volatile int runningInteractive;
    private volatile int runningNormal;
    private volatile int runningBackground;
    /** Tenant id -> tenant: looked up and added without the lock, removed only by a sweep under it. */
    private final ConcurrentHashMap<String, Tenant> tenants = new ConcurrentHashMap<>();
    /** A tenant added while the map holds more than this starts a sweep ({@link #sweepIfGrown}); written under lock. */
    private volatile int sweepAbove = IDLE_TENANTS_KEPT;
    /** The moving average of how long runs hold a slot; changed through {@link #MEAN_RUN}. */
    private volatile long meanRunMillis;

    // written under lock, volatile for the lock-free reads (see the class comment)
    private volatile int cap;
    /** No slot is granted before this instant (epoch millis); 0: not paused. */
    private volatile long pausedUntilMillis;
    /** Slots that may be held at once besides the cap: the fleet permits held (gated), else unlimited. */
    private volatile int allowance = Integer.MAX_VALUE;
    private volatile int fairCeiling = Integer.MAX_VALUE; // gated: this instance's fair share while another is short (D228)

    // everything below: guarded by lock
    private int backgroundLimit;
    private final ClassQueue[] classes = new ClassQueue[PriorityClass.COUNT];
    /** Background waiters in the order they came (stale entries skipped lazily), for aging. */
    private final ArrayDeque<Waiter> backgroundByAge = new ArrayDeque<>();
    private final Map<String, Waiter> bySession = new HashMap<>();
    /** Waiting runs their tenants' caps hold back: the sum of every tenant's {@link Tenant#heldBack()}. */
    private int heldBack;
    /** Tenant caps and the background share are fleet-wide ({@link #gateWithCapsBy}). Set once, before use. */
    private boolean capsGated;
    /** Background slots the {@code class:background} permits held here allow while others wait; unlimited ungated. */
    private int backgroundAllowance = Integer.MAX_VALUE;
    /** Told (outside the lock) when the demand may have changed; null when not gated. Set once, before use. */
    private volatile DemandListener demandListener;

    /**
     * The gate's owner: told, outside the scheduler's lock, that the demand for the permits of the
     * fleet-wide cap {@code cap} may have changed (this scheduler's {@link #name()}, {@code tenant:<id>}
     * or {@code class:background}).
     */
    @FunctionalInterface
    public interface DemandListener {
        void demandChanged(String cap);
    }

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
        this.meanRunMillis = settings.initialRunTime().toMillis();
        for (PriorityClass priority : PriorityClass.values()) {
            classes[priority.ordinal()] = new ClassQueue(priority);
        }
    }

    public int cap() {
        lock.lock();
        try {
            return cap;
        } finally {
            lock.unlock();
        }
    }

    /** The lane name its permits carry ({@code main}, or a provider pool's). */
    @Override
    public String name() {
        return name;
    }

    /**
     * The slots that may be held now: the cap, or fewer while gated by a smaller allowance or held to
     * this instance's fair share of the fleet's cap (docs/behaviour.md §17). Volatile reads: exact
     * under the lock, a moment's answer without it.
     */
    private int limitLocked() {
        return Math.min(cap, Math.min(allowance, fairCeiling));
    }

    /**
     * Gates grants by an allowance that starts at 0 (see the class comment): {@code listener} is told
     * whenever the demand may have changed. Call once, before the scheduler is used.
     */
    public void gateBy(DemandListener listener) {
        gate(listener, false);
    }

    /**
     * Gates grants as {@link #gateBy} does, and tenant running caps and the background share by their
     * own fleet permits (see the class comment and {@link #capGate}). Call once, before use.
     */
    public void gateWithCapsBy(DemandListener listener) {
        gate(listener, true);
    }

    private void gate(DemandListener listener, boolean caps) {
        lock.lock();
        try {
            if (!tenants.isEmpty() || runningNow() > 0) {
                throw new IllegalStateException(name + ": gate the scheduler before it is used");
            }
            allowance = 0;
            capsGated = caps;
            if (caps) {
                backgroundAllowance = 0;
            }
            demandListener = java.util.Objects.requireNonNull(listener, "listener");
        } finally {
            lock.unlock();
        }
    }

    /**
     * Gated: how many more slots the waiting runs could use than the allowance gives (0 when none).
     * Runs held back by their tenants' caps are not counted, nor is anyone while paused.
     */
    @Override
    public int allowanceWanted() {
        lock.lock();
        try {
            return Math.max(0, Math.min(demandLocked(), fairCeiling) - allowance);
        } finally {
            lock.unlock();
        }
    }

    /** The slots the runs holding and waiting for one could use now (under the lock). */
    private int demandLocked() {
        if (clock.millis() < pausedUntilMillis) {
            return runningNow(); // nobody is granted one before the pause ends: no fleet permit is held for them
        }
        return Math.min(cap, runningNow() + waitingNow() - heldBack);
    }

    /** Gated: {@code more} slots may be held (fleet permits taken); hands them to waiters at once. */
    @Override
    public void addAllowance(int more) {
        changeThenDispatch(() -> allowance += more);
    }

    /**
     * Gated: {@code fewer} fleet permits are gone (expired before their renewal): the allowance drops
     * by that much, possibly below the slots held, so no slot is granted until runs end below it and
     * new permits are taken (docs/architecture.md §7.1).
     */
    @Override
    public void loseAllowance(int fewer) {
        lock.lock();
        try {
            allowance = Math.max(0, allowance - fewer);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Gated: lowers the allowance to what the runs holding and waiting for slots need (never below
     * the slots held) and returns by how much, so the owner gives that many fleet permits back. One
     * step under the lock, so no grant can take a slot whose permit is being given back.
     */
    @Override
    public int trimAllowance() {
        lock.lock();
        try {
            int needed = Math.max(runningNow(), Math.min(demandLocked(), fairCeiling));
            int spare = allowance - needed;
            if (spare <= 0) {
                return 0;
            }
            allowance = needed;
            return spare;
        } finally {
            lock.unlock();
        }
    }

    /** Gated: the slots the runs holding and waiting for one could use now, whatever the allowance and ceiling. */
    @Override
    public int demand() {
        lock.lock();
        try {
            return Math.max(runningNow(), demandLocked());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Gated: holds this instance to {@code ceiling} slots (its fair share of the fleet's cap while
     * another instance is short of its own; unlimited otherwise; docs/decisions.md D228). A run that
     * ends above it hands its slot to no local waiter, so the next {@link #trimAllowance} gives its
     * permit back to the fleet; runs holding slots go on.
     */
    @Override
    public void limitAllowance(int ceiling) {
        if (ceiling < 0) {
            throw new IllegalArgumentException(name + ": a fair-share ceiling must be at least 0, got " + ceiling);
        }
        changeThenDispatch(() -> fairCeiling = ceiling);
    }

    /** Gated: the allowance now (fleet permits held); unlimited when not gated. */
    @Override
    public int allowance() {
        lock.lock();
        try {
            return allowance;
        } finally {
            lock.unlock();
        }
    }

    private void demandChanged() {
        DemandListener listener = demandListener;
        if (listener != null) {
            listener.demandChanged(name);
        }
    }

    /**
     * Tells the gate's owner that the demand for fleet-wide caps may have changed: {@code tenant}'s
     * (null, or not gated: not told) and, when {@code background}, the background share's.
     */
    private void capsChanged(String gatedTenant, boolean background) {
        DemandListener listener = demandListener;
        if (listener == null) {
            return;
        }
        if (gatedTenant != null) {
            listener.demandChanged(TENANT_CAP + gatedTenant);
        }
        if (background) {
            listener.demandChanged(BACKGROUND_CAP);
        }
    }

    /** Under the lock: the tenant's id when its running cap is gated by fleet permits, else null. */
    private static String gatedId(Tenant tenant) {
        return tenant.gated() ? tenant.id : null;
    }

    /**
     * The gate of the fleet-wide cap {@code cap} of a scheduler gated with its caps: {@code tenant:<id>}
     * (that tenant's running cap) or {@code class:background} (the background share).
     *
     * @throws IllegalArgumentException for another name
     */
    public AllowanceGate capGate(String cap) {
        if (cap.equals(BACKGROUND_CAP)) {
            return new BackgroundGate();
        }
        if (cap.startsWith(TENANT_CAP) && cap.length() > TENANT_CAP.length()) {
            return new TenantGate(cap.substring(TENANT_CAP.length()));
        }
        throw new IllegalArgumentException(name + ": no fleet-wide cap called " + cap);
    }

    /** The fleet-wide size of cap {@code cap} (see {@link #capGate}): a tenant's {@code maxRunning}, or the background share's slots. */
    public int fleetCapOf(String cap) {
        if (cap.equals(BACKGROUND_CAP)) {
            lock.lock();
            try {
                return backgroundLimit;
            } finally {
                lock.unlock();
            }
        }
        if (cap.startsWith(TENANT_CAP)) {
            return settings.limitsOf(cap.substring(TENANT_CAP.length())).maxRunning();
        }
        throw new IllegalArgumentException(name + ": no fleet-wide cap called " + cap);
    }

    // ---- a tenant's counts change only through these (under the lock), so heldBack stays their sum

    private void tenantWaits(Tenant tenant, int delta) {
        heldBack -= tenant.heldBack();
        tenant.waiting += delta;
        heldBack += tenant.heldBack();
    }

    /** A grant (delta 1, at {@code now}) or release (-1) of a tenant under the lock: it is not swept meanwhile. */
    private void tenantRuns(Tenant tenant, int delta, long now) {
        heldBack -= tenant.heldBack();
        if (delta > 0) {
            if (!tenant.addRunning(now)) {
                throw new IllegalStateException(name + ": tenant " + tenant.id + " was swept while in use");
            }
        } else {
            tenant.removeRunning();
        }
        heldBack += tenant.heldBack();
    }

    private void tenantAllowance(Tenant tenant, int value) {
        heldBack -= tenant.heldBack();
        tenant.allowance = value;
        heldBack += tenant.heldBack();
    }

    /** One tenant's running cap, gated by its {@code tenant:<id>} fleet permits. */
    private final class TenantGate implements AllowanceGate {
        private final String id;

        TenantGate(String id) {
            this.id = id;
        }

        @Override
        public String name() {
            return TENANT_CAP + id;
        }

        @Override
        public int allowanceWanted() {
            lock.lock();
            try {
                Tenant tenant = tenants.get(id);
                return tenant == null ? 0 : tenant.allowanceWanted();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void addAllowance(int more) {
            changeThenDispatch(() -> {
                Tenant tenant = tenantById(id); // kept while it holds permits (Tenant.unused)
                if (!tenant.gated()) {
                    throw new IllegalStateException(name() + " is not gated by fleet permits");
                }
                tenantAllowance(tenant, tenant.allowance + more);
            });
            demandChanged(); // its runs held back before may now want a main slot
        }

        @Override
        public int trimAllowance() {
            lock.lock();
            try {
                Tenant tenant = tenants.get(id);
                if (tenant == null || !tenant.gated()) {
                    return 0;
                }
                int needed = Math.max(tenant.running(),
                        Math.min(tenant.limits.maxRunning(), tenant.running() + tenant.waiting));
                int spare = tenant.allowance - needed;
                if (spare <= 0) {
                    return 0;
                }
                tenantAllowance(tenant, needed);
                forgetIfUnused(tenant);
                return spare;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void loseAllowance(int fewer) {
            lock.lock();
            try {
                Tenant tenant = tenants.get(id);
                if (tenant != null && tenant.gated()) {
                    tenantAllowance(tenant, Math.max(0, tenant.allowance - fewer));
                }
            } finally {
                lock.unlock();
            }
        }

        @Override
        public int allowance() {
            lock.lock();
            try {
                Tenant tenant = tenants.get(id);
                return tenant == null || !tenant.gated() ? 0 : tenant.allowance;
            } finally {
                lock.unlock();
            }
        }
    }

    /** The background share, gated by the {@code class:background} fleet permits. */
    private final class BackgroundGate implements AllowanceGate {

        @Override
        public String name() {
            return BACKGROUND_CAP;
        }

        /** Under the lock: background slots that count against the share (at most the share). */
        private int neededLocked() {
            int background = PriorityClass.BACKGROUND.ordinal();
            return Math.min(backgroundLimit, runningOfClass(background) + classes[background].waiting());
        }

        @Override
        public int allowanceWanted() {
            lock.lock();
            try {
                return capsGated ? Math.max(0, neededLocked() - backgroundAllowance) : 0;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void addAllowance(int more) {
            changeThenDispatch(() -> {
                if (!capsGated) {
                    throw new IllegalStateException(name + ": the background share is not gated by fleet permits");
                }
                backgroundAllowance += more;
            });
        }

        @Override
        public int trimAllowance() {
            lock.lock();
            try {
                if (!capsGated) {
                    return 0;
                }
                int spare = backgroundAllowance - neededLocked();
                if (spare <= 0) {
                    return 0;
                }
                backgroundAllowance -= spare;
                return spare;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void loseAllowance(int fewer) {
            lock.lock();
            try {
                if (capsGated) {
                    backgroundAllowance = Math.max(0, backgroundAllowance - fewer);
                }
            } finally {
                lock.unlock();
            }
        }

        @Override
        public int allowance() {
            lock.lock();
            try {
                return capsGated ? backgroundAllowance : 0;
            } finally {
                lock.unlock();
            }
        }
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
        changeThenDispatch(() -> {
            cap = newCap;
            backgroundLimit = backgroundLimitOf(newCap, settings);
        });
        demandChanged(); // gated: a higher cap may want more fleet permits, a lower one fewer
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
        } finally {
            lock.unlock();
        }
        demandChanged(); // gated: fleet permits beyond the runs holding slots go back for the pause
        return true;
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
        changeThenDispatch(() -> { });
        demandChanged(); // gated: the waiting runs want fleet permits again
    }

    /**
     * A slot now, without a future, when one is free and nobody waits; null otherwise (the caller
     * then asks through {@link #acquire}).
     */
    public LanePermit acquireIfFree(Claim claim) {
        if (demandListener == null) { // not gated: the lock-free grant when it applies (see the class comment)
            long now = clock.millis();
            if (!freeAt(ctl, now)) {
                return null;
            }
            Tenant tenant = tenantOf(claim);
            if (!tenant.capped()) {
                Permit permit = grantFree(tenant, classOf(claim), claim, now);
                if (permit != null) {
                    observer.granted(claim.priority(), permit.priority, permit.tenant.id, Duration.ZERO, Duration.ZERO);
                }
                return permit;
            }
        }
        Permit permit;
        boolean backgroundCounted;
        lock.lock();
        try {
            long now = clock.millis();
            if (runningNow() >= limitLocked() || waitingNow() > 0 || now < pausedUntilMillis) {
                return null;
            }
            Tenant tenant = tenantOf(claim);
            if (!tenant.mayRun()) {
                forgetIfUnused(tenant);
                return null;
            }
            PriorityClass served = classOf(claim);
            tenantRuns(tenant, 1, now);
            classRuns(served, 1);
            if (!takeFreeSlot(now)) { // not gated: a lock-free grant took the last free slot meanwhile
                classRuns(served, -1);
                tenantRuns(tenant, -1, now);
                return null;
            }
            permit = new Permit(tenant, served, now);
            backgroundCounted = capsGated && permit.priority == PriorityClass.BACKGROUND;
        } finally {
            lock.unlock();
        }
        if (backgroundCounted) {
            capsChanged(null, true); // it counts against the background share's fleet permits
        }
        observer.granted(claim.priority(), permit.priority, permit.tenant.id, Duration.ZERO, Duration.ZERO);
        return permit;
    }

    /**
     * The lock-free grant of a free slot to a run of a tenant without a running cap, the scheduler
     * not gated (docs/decisions.md D236): the tenant's and the class's counts go up, then the slot is
     * taken by a compare-and-set that succeeds only while one is free and nobody waits. A run that
     * loses it undoes the counts and gets null (no slot was free, or someone queued first); a dispatch
     * that ran meanwhile may have passed background over for the class count it saw, so with runs
     * waiting it dispatches again.
     */
    private Permit grantFree(Tenant tenant, PriorityClass served, Claim claim, long now) {
        while (!tenant.addRunning(now)) { // swept since it was looked up: it is the tenant anew
            tenant = tenantOf(claim);
        }
        classRuns(served, 1);
        if (takeFreeSlot(now)) {
            return new Permit(tenant, served, now);
        }
        classRuns(served, -1);
        tenant.removeRunning();
        if (served == PriorityClass.BACKGROUND && waitingNow() > 0) {
            changeThenDispatch(() -> { });
        }
        return null;
    }

    /**
     * Takes a slot in {@code ctl} while one is free, nobody waits and no pause holds at {@code now}
     * (read again at each try, as the cap is); false otherwise. Any thread.
     */
    private boolean takeFreeSlot(long now) {
        while (true) {
            long c = ctl;
            if (runningOf(c) >= limitLocked() || waitingOf(c) != 0 || now < pausedUntilMillis) {
                return false;
            }
            if (CTL.compareAndSet(this, c, c + 1)) {
                return true;
            }
        }
    }

    /** Not gated, no lock: whether a run asking at {@code now} would get a slot at once ({@code c}: {@code ctl}). */
    private boolean freeAt(long c, long now) {
        return runningOf(c) < limitLocked() && waitingOf(c) == 0 && now >= pausedUntilMillis;
    }

    private static int runningOf(long c) {
        return (int) c;
    }

    private static int waitingOf(long c) {
        return (int) (c >>> 32);
    }

    /** Slots of class {@code served} were taken ({@code delta} 1) or given back (-1). Any thread. */
    private void classRuns(PriorityClass served, int delta) {
        switch (served) {
            case INTERACTIVE -> RUNNING_INTERACTIVE.getAndAdd(this, delta);
            case NORMAL -> RUNNING_NORMAL.getAndAdd(this, delta);
            case BACKGROUND -> RUNNING_BACKGROUND.getAndAdd(this, delta);
        }
    }

    /** The slots held by runs of the class of ordinal {@code ordinal}. */
    private int runningOfClass(int ordinal) {
        if (ordinal == PriorityClass.INTERACTIVE.ordinal()) {
            return runningInteractive;
        }
        return ordinal == PriorityClass.NORMAL.ordinal() ? runningNormal : runningBackground;
    }

    /** The slots held now. */
    private int runningNow() {
        return runningOf(ctl);
    }

    /** The runs waiting now (changed under the lock only). */
    private int waitingNow() {
        return waitingOf(ctl);
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
        String gatedTenant;
        boolean background;
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
            tenantWaits(tenant, 1);
            CTL.getAndAdd(this, ONE_WAITING); // before the dispatch: no lock-free grant succeeds from here
            bySession.put(claim.session(), waiter);
            grants = dispatchLocked(now);
            gatedTenant = gatedId(tenant);
            background = capsGated && priority == PriorityClass.BACKGROUND;
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
        if (!waiter.future.isDone()) {
            demandChanged();
            capsChanged(gatedTenant, background);
        } else {
            capsChanged(null, background);
        }
        return waiter.future;
    }

    /**
     * Whether a run asking now would get a slot at once: one is free and nobody waits. No allocation;
     * not gated, no lock either (the fields it reads are volatile, and the answer may change the
     * moment after, as it could once the lock was let go; docs/decisions.md D236).
     */
    public boolean freeNow() {
        if (demandListener == null) {
            return freeAt(ctl, clock.millis());
        }
        lock.lock();
        try {
            return runningNow() < limitLocked() && waitingNow() == 0 && clock.millis() >= pausedUntilMillis;
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
        return Duration.ofMillis(meanRunMillis);
    }

    /** Whether {@code thread} waits for the scheduler's lock (for tests of when it is taken). */
    boolean waitsForLock(Thread thread) {
        return lock.hasQueuedThread(thread);
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
            long c = ctl;
            return new LaneSnapshot(name, cap, runningOf(c), waitingOf(c));
        } finally {
            lock.unlock();
        }
    }

    public SchedulerSnapshot snapshot() {
        lock.lock();
        try {
            long c = ctl;
            Map<PriorityClass, SchedulerSnapshot.Load> byClass = new EnumMap<>(PriorityClass.class);
            for (PriorityClass priority : PriorityClass.values()) {
                byClass.put(priority, new SchedulerSnapshot.Load(runningOfClass(priority.ordinal()),
                        classes[priority.ordinal()].waiting()));
            }
            List<SchedulerSnapshot.TenantLoad> loads = new ArrayList<>(tenants.size());
            tenants.values().stream().filter(t -> !t.unused())
                    .forEach(t -> loads.add(new SchedulerSnapshot.TenantLoad(t.id, t.running(), t.waiting)));
            loads.sort(Comparator.comparingInt((SchedulerSnapshot.TenantLoad t) -> -(t.running() + t.waiting()))
                    .thenComparing(SchedulerSnapshot.TenantLoad::tenant));
            return new SchedulerSnapshot(settings.mode(), cap, runningOf(c), waitingOf(c), Map.copyOf(byClass), List.copyOf(loads),
                    Duration.ofMillis(meanRunMillis));
        } finally {
            lock.unlock();
        }
    }

    // ---- inside the lock

    private PriorityClass classOf(Claim claim) {
        return fifo ? PriorityClass.NORMAL : claim.priority();
    }

    private String tenantIdOf(Claim claim) {
        return fifo ? FIFO_TENANT : claim.tenant();
    }

    private Tenant newTenant(String id) {
        return new Tenant(id, fifo ? TenantLimits.DEFAULT : settings.limitsOf(id), capsGated, this);
    }

    /**
     * The claim's tenant, kept here (any thread): the one the claim remembers while that is still
     * kept, else looked up or added, and then remembered (unless the claim remembers another
     * scheduler's: a run's claim asks {@code main} first, then maybe a provider pool). A claim that
     * comes back for a tenant swept meanwhile marks the new one returning, so it is kept while its
     * session rests (docs/decisions.md D237).
     */
    private Tenant tenantOf(Claim claim) {
        Tenant remembered = claim.resolved;
        boolean ours = remembered != null && remembered.owner == this;
        if (ours && !remembered.gone()) {
            return remembered;
        }
        Tenant tenant = tenantById(tenantIdOf(claim), ours);
        if (remembered == null || ours) {
            claim.resolved = tenant;
        }
        return tenant;
    }

    private Tenant tenantById(String id) {
        return tenantById(id, false);
    }

    /** The tenant {@code id}, added if it is not kept (any thread); {@code returning}: see {@link #tenantOf(Claim)}. */
    private Tenant tenantById(String id, boolean returning) {
        while (true) {
            Tenant tenant = tenants.get(id);
            if (tenant != null && !tenant.gone()) {
                if (returning && !tenant.returning) {
                    tenant.returning = true;
                }
                return tenant;
            }
            if (tenant != null) {
                tenants.remove(id, tenant); // retired by a sweep that has not taken it out yet
                continue;
            }
            Tenant fresh = newTenant(id);
            fresh.returning = returning;
            if (tenants.putIfAbsent(id, fresh) == null) {
                sweepIfGrown(fresh);
                return fresh;
            }
        }
    }

    /** Under the lock: sweeps idle tenants if the map has grown past the bound ({@link #sweepIfGrown}). */
    private void forgetIfUnused(Tenant tenant) {
        if (tenant.unused()) {
            sweepIfGrown(null);
        }
    }

    /**
     * Forgets tenants with nothing running or waiting (nor fleet permits held), but only once the map
     * has doubled since the last sweep (and holds more than {@link #IDLE_TENANTS_KEPT}): a tenant that
     * comes and goes on every run (a DM user) then costs no map insert and removal per run, and
     * sweeps stay amortised O(1) per run however many tenants are active. A returning tenant (one a
     * session's kept claim came back for after a sweep) is kept until {@link #RETURNING_KEPT_MILLIS}
     * after its last grant, so the tenants of resting sessions are not added again at each of their
     * runs (D237). Runs when a tenant was added ({@code added}, which its caller is about to use, is
     * kept; a lock-free grant for a tenant the map lacks adds it, so it may sweep too) and when a
     * tenant becomes unused under the lock; takes the lock (a release without the lock never
     * sweeps). Snapshots leave idle tenants out.
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
            long now = clock.millis();
            for (Tenant tenant : tenants.values()) {
                if (tenant != added && tenant.retireIfIdle(now, RETURNING_KEPT_MILLIS)) {
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
        int free = cap - runningNow();
        int queued = (int) Math.min(Integer.MAX_VALUE, ahead);
        long pausedMillis = Math.max(0, pausedUntilMillis - clock.millis());
        if (ahead < free && tenant.mayRun()) {
            return new WaitEstimate(queued, Duration.ofMillis(pausedMillis));
        }
        // slots free one at a time, about every meanRun / cap; it needs (ahead - free + 1) of them
        long slots = Math.max(1, ahead - Math.max(0, free) + 1);
        return new WaitEstimate(queued, Duration.ofMillis(pausedMillis + slots * meanRunMillis / cap));
    }

    /**
     * Runs {@code change} under the lock, then hands out what it freed (dispatch under the lock,
     * futures completed outside it); a change that throws grants nothing.
     */
    private void changeThenDispatch(Runnable change) {
        List<Grant> grants;
        lock.lock();
        try {
            change.run();
            grants = dispatchLocked(clock.millis());
        } finally {
            lock.unlock();
        }
        complete(grants);
    }

    /**
     * Grants a waiter's slot (under the lock, a slot free, the waiter taken out of line): its counts
     * go up, then one run moves from waiting to holding a slot in {@code ctl}. Nobody waiting took a
     * slot without the lock meanwhile (see the class comment), so the slot seen free is still free.
     */
    private Permit grantLocked(PriorityClass served, Tenant tenant, long now) {
        tenantRuns(tenant, 1, now);
        classRuns(served, 1);
        CTL.getAndAdd(this, 1 - ONE_WAITING);
        return new Permit(tenant, served, now);
    }

    /** Hands free slots to waiters, by class, rotation and caps (see the class comment). */
    private List<Grant> dispatchLocked(long now) {
        List<Grant> grants = null;
        while (waitingNow() > 0 && now >= pausedUntilMillis && runningNow() < limitLocked()) {
            promoteAged(now);
            Waiter next = pickLocked();
            if (next == null) {
                break;
            }
            next.waiting = false;
            tenantWaits(next.tenant, -1);
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
            if (c == PriorityClass.BACKGROUND.ordinal()
                    && runningOfClass(c) >= Math.min(backgroundLimit, backgroundAllowance)
                    && waitingNow() > queue.waiting()) {
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
        String gatedTenant;
        boolean background;
        List<Grant> grants;
        lock.lock();
        try {
            if (!waiter.waiting) {
                return;
            }
            waiter.waiting = false;
            classes[waiter.priority.ordinal()].remove(waiter);
            CTL.getAndAdd(this, -ONE_WAITING);
            tenantWaits(waiter.tenant, -1);
            bySession.remove(waiter.claim.session(), waiter);
            gatedTenant = gatedId(waiter.tenant);
            background = capsGated && waiter.priority == PriorityClass.BACKGROUND;
            forgetIfUnused(waiter.tenant);
            // a background run the withdrawn one kept to its share may take a free slot now
            grants = dispatchLocked(clock.millis());
        } finally {
            lock.unlock();
        }
        complete(grants);
        demandChanged();
        capsChanged(gatedTenant, background);
    }

    /**
     * Gives a slot back. Not gated, a tenant without a running cap: without the lock unless someone
     * waits (docs/decisions.md D236). Its counts go down, then the slot, in the same atomic add that
     * reads whether anyone waits; if so, the free slots are handed out under the lock. Otherwise
     * under the lock, with the dispatch and the fleet's notices as before.
     */
    private void release(Permit permit) {
        if (demandListener == null && !permit.tenant.capped()) {
            long now = clock.millis();
            recordRunTime(now - permit.grantedAtMillis);
            permit.tenant.removeRunning();
            classRuns(permit.priority, -1);
            long before = (long) CTL.getAndAdd(this, -1L);
            if (waitingOf(before) > 0) {
                changeThenDispatch(() -> { });
            }
            return;
        }
        List<Grant> grants;
        String gatedTenant;
        boolean background;
        lock.lock();
        try {
            long now = clock.millis();
            tenantRuns(permit.tenant, -1, now);
            classRuns(permit.priority, -1);
            CTL.getAndAdd(this, -1L);
            recordRunTime(now - permit.grantedAtMillis);
            grants = dispatchLocked(now);
            gatedTenant = gatedId(permit.tenant);
            background = capsGated && permit.priority == PriorityClass.BACKGROUND;
            forgetIfUnused(permit.tenant);
        } finally {
            lock.unlock();
        }
        complete(grants);
        demandChanged();
        capsChanged(gatedTenant, background);
    }

    /** Moves the mean run time 1/8 of the way to {@code heldMillis} (compare-and-set: any thread). */
    private void recordRunTime(long heldMillis) {
        long held = Math.max(0, heldMillis);
        while (true) {
            long mean = meanRunMillis;
            long next = mean + (held - mean) / 8;
            if (next == mean || MEAN_RUN.compareAndSet(this, mean, next)) {
                return; // unchanged (runs as long as the mean, to the millisecond): nothing written
            }
        }
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
