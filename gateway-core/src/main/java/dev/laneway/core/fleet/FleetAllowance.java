package dev.laneway.core.fleet;

import dev.laneway.core.scheduling.AllowanceGate;
import dev.laneway.core.scheduling.MainScheduler;
import dev.laneway.core.time.Scheduler;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a {@link MainScheduler}'s caps fleet-wide (docs/behaviour.md §17, docs/architecture.md §7.1):
 * the scheduler keeps deciding who is next (classes, fair share, aging), and grants only as many
 * slots as the fleet permits this instance holds. Each gated cap is an {@link AllowanceGate}: the
 * scheduler's own slots ({@code main}, or a provider pool's), and with {@link FleetCaps} also each
 * capped tenant's running cap ({@code tenant:<id>}) and the background share
 * ({@code class:background}). When a gate wants more than its allowance, this takes permits of that
 * cap from its {@link FleetPermitSource}; when the allowance exceeds what runs hold and wait for, the
 * gate trims it and the spare permits go back. A cap the fleet has no permit of is asked again every
 * {@code retryEvery} (another instance's release is not announced), so a waiting run learns of a
 * freed permit within that time.
 *
 * <p>Concurrency: the scheduler tells {@link #demandChanged} (with the cap's name) from any thread,
 * outside its lock. The name goes into {@code dirty} (concurrent) and {@code signals} makes balancing
 * single-threaded: the first signal hands one balancing task to the executor, later ones only count,
 * and the task loops until no signal came during its pass. {@code caps} (each cap's gate, source,
 * held permits) is touched by that task only; a cap's held permits number its gate's allowance. A
 * tenant's or the share's entry is made when it first wants permits and dropped once it holds none,
 * so idle tenants cost nothing. A permit the fleet lost (expired before its renewal) is queued in
 * {@code lost} (concurrent) by the renewing thread and taken off its cap and the allowance by the
 * task, so this instance grants one slot fewer until it takes a permit again. {@code retry}
 * (concurrent) holds the caps refused at their last ask, and {@code retryArmed} keeps at most one
 * retry timer for them all.
 *
 * <p>Fair share (docs/behaviour.md §17, docs/decisions.md D228): while the scheduler's own cap is
 * busy here, once per {@code retryEvery} the balancing task publishes its demand through the
 * source and learns its {@link FairShare}; while another instance is short of its share, the gate
 * is held to this one's share ({@link AllowanceGate#limitAllowance}), so a run that ends above it
 * gives its permit back to the fleet instead of to the next local waiter. {@code shareDue} (set by
 * the timer) says a refresh is due; {@code published} (balancing task only) is the demand last
 * published, so a demand that fell to 0 is published once more.
 */
public final class FleetAllowance implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(FleetAllowance.class);

    /**
     * How often a cap the fleet had no permit of is asked again (docs/behaviour.md §17): another
     * instance's release is not announced, so a waiting run learns of it within this time.
     */
    public static final Duration RETRY_EVERY = Duration.ofMillis(250);

    /** One gated cap: its gate, where its permits come from, the permits held for it. */
    private static final class Cap {
        final AllowanceGate gate;
        final FleetPermitSource source;
        final boolean fixed; // the scheduler's own slots: never dropped
        final ArrayDeque<FleetPermitSource.Permit> held = new ArrayDeque<>();

        Cap(AllowanceGate gate, FleetPermitSource source, boolean fixed) {
            this.gate = gate;
            this.source = source;
            this.fixed = fixed;
        }
    }

    private record Lost(String cap, FleetPermitSource.Permit permit) {
    }

    private final AllowanceGate own;
    private final Function<String, Cap> open; // the entry of a cap not held now; null: not gated here
    private final Executor executor;
    private final Scheduler timers;
    private final Duration retryEvery;
    private final AtomicInteger signals = new AtomicInteger();
    private final Set<String> dirty = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean allDirty = new AtomicBoolean();
    private final Set<String> retry = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean retryArmed = new AtomicBoolean();
    private final AtomicBoolean shareDue = new AtomicBoolean(true);
    private volatile boolean shareTicking;
    private int published; // balancing task only: the demand last published for the own cap's fair share
    private int ceiling = Integer.MAX_VALUE; // balancing task only: the own gate's fair-share ceiling now
    private boolean shareless; // balancing task only: the source keeps no fair share (not shared)
    private boolean shareFailing; // balancing task only: the last publish failed (logged once)
    private final Map<String, Cap> caps = new HashMap<>(); // balancing task only
    private final Queue<Lost> lost = new ConcurrentLinkedQueue<>();
    private volatile boolean closed;
    private boolean unreachable; // balancing task only: the last ask failed (one store for every cap: logged once)

    private FleetAllowance(AllowanceGate own, FleetPermitSource ownSource, Function<String, Cap> open,
                           Executor executor, Scheduler timers, Duration retryEvery) {
        this.own = own;
        this.open = open;
        this.executor = executor;
        this.timers = timers;
        this.retryEvery = retryEvery;
        caps.put(own.name(), new Cap(own, ownSource, true));
        ownSource.onLost(permit -> permitLost(own.name(), permit));
    }

    /**
     * Gates {@code scheduler}'s slots by permits of {@code source} (before the scheduler is used):
     * {@code main}'s, or a provider pool's.
     */
    public static FleetAllowance gate(MainScheduler scheduler, FleetPermitSource source, Executor executor,
                                      Scheduler timers, Duration retryEvery) {
        FleetAllowance allowance = new FleetAllowance(Objects.requireNonNull(scheduler, "scheduler"),
                Objects.requireNonNull(source, "source"), cap -> null, Objects.requireNonNull(executor, "executor"),
                Objects.requireNonNull(timers, "timers"), Objects.requireNonNull(retryEvery, "retryEvery"));
        scheduler.gateBy(allowance::demandChanged);
        return allowance;
    }

    /**
     * Gates {@code scheduler}'s slots by permits of {@code source}, and its tenants' running caps and
     * background share by the permits of {@code caps} of the same names (before the scheduler is used;
     * {@code main} in a fleet).
     */
    public static FleetAllowance gateWithCaps(MainScheduler scheduler, FleetPermitSource source, FleetCaps caps,
                                              Executor executor, Scheduler timers, Duration retryEvery) {
        Objects.requireNonNull(scheduler, "scheduler");
        Objects.requireNonNull(caps, "caps");
        Function<String, Cap> open = name -> {
            int size = scheduler.fleetCapOf(name);
            return size < 1 ? null : new Cap(scheduler.capGate(name), caps.permits(name, size), false);
        };
        FleetAllowance allowance = new FleetAllowance(scheduler, Objects.requireNonNull(source, "source"), open,
                Objects.requireNonNull(executor, "executor"), Objects.requireNonNull(timers, "timers"),
                Objects.requireNonNull(retryEvery, "retryEvery"));
        scheduler.gateWithCapsBy(allowance::demandChanged);
        return allowance;
    }

    /** The demand for cap {@code cap} may have changed: balance (on the executor) unless a balancing task is on its way. */
    void demandChanged(String cap) {
        dirty.add(cap);
        signal();
    }

    private void signal() {
        if (signals.getAndIncrement() == 0) {
            executor.execute(this::balance);
        }
    }

    /** A permit held here expired in the fleet before its renewal: it no longer counts here either. */
    private void permitLost(String cap, FleetPermitSource.Permit permit) {
        lost.add(new Lost(cap, permit));
        demandChanged(cap);
    }

    private void balance() {
        int seen = signals.get();
        while (true) {
            balanceOnce();
            if (signals.compareAndSet(seen, 0)) {
                return;
            }
            seen = signals.get();
        }
    }

    private void balanceOnce() {
        for (Lost gone = lost.poll(); gone != null; gone = lost.poll()) {
            Cap cap = caps.get(gone.cap());
            if (cap != null && cap.held.remove(gone.permit())) {
                cap.gate.loseAllowance(1); // the run holding its slot goes on; the next grant waits for a new permit
                log.warn("fleet: a {} permit expired before its renewal; this instance grants one run fewer until it"
                        + " takes a permit again", gone.cap());
            }
        }
        List<String> names = new ArrayList<>();
        if (allDirty.getAndSet(false)) {
            names.addAll(caps.keySet());
        }
        for (String name : List.copyOf(dirty)) {
            dirty.remove(name);
            names.add(name);
        }
        for (String name : names) {
            balance(name);
        }
    }

    private void balance(String name) {
        Cap cap = caps.get(name);
        if (cap == null) {
            if (closed) {
                return;
            }
            cap = open.apply(name);
            if (cap == null) {
                return;
            }
            caps.put(name, cap);
            cap.source.onLost(permit -> permitLost(name, permit));
        }
        if (cap.fixed && !shareless && shareDue.getAndSet(false)) {
            refreshShare(cap);
        }
        for (int spare = cap.gate.trimAllowance(); spare > 0; spare--) {
            FleetPermitSource.Permit permit = cap.held.pollLast();
            if (permit != null) {
                permit.release();
            }
        }
        while (!closed && cap.gate.allowanceWanted() > 0) { // closed: only trims, as runs end
            FleetPermitSource.Permit permit = take(name, cap);
            if (permit == null) {
                retry.add(name);
                armRetry();
                return;
            }
            cap.held.addLast(permit);
            cap.gate.addAllowance(1);
        }
        if (cap.fixed && shareTicking) {
            armRetry(); // the share is refreshed while the cap is busy here (see refreshShare)
        }
        if (!cap.fixed && cap.held.isEmpty() && cap.gate.allowance() == 0) {
            caps.remove(name); // idle: made again when it next wants permits
        }
    }

    /**
     * Publishes the own cap's demand and holds its gate to the fair share the source answers
     * (docs/decisions.md D228). A source that keeps no share (null) is not asked again. The share is
     * asked for again at the next retry while the demand, or the last one published, is above 0.
     */
    private void refreshShare(Cap cap) {
        int demand = closed ? 0 : cap.gate.demand();
        if (demand == 0 && published == 0) {
            shareTicking = false;
            shareDue.set(true); // nothing to say yet: published as soon as runs want the cap
            return;
        }
        FairShare share;
        try {
            share = cap.source.share(demand);
        } catch (RuntimeException e) {
            shareTicking = true; // asked again at the next retry; the last ceiling holds meanwhile
            if (!shareFailing) {
                shareFailing = true;
                log.warn("fleet: could not publish the {} demand for its fair share ({}); asked again every {} ms",
                        cap.gate.name(), e.getMessage(), retryEvery.toMillis());
            }
            return;
        }
        shareFailing = false;
        if (share == null) {
            shareless = true;
            shareTicking = false;
            return;
        }
        published = demand;
        shareTicking = demand > 0;
        int next = closed ? Integer.MAX_VALUE : share.ceiling();
        if (next != ceiling) {
            ceiling = next;
            cap.gate.limitAllowance(next);
            log.debug("fleet: {} held to {} permits (fair share {}, another instance short: {})", cap.gate.name(),
                    next == Integer.MAX_VALUE ? "the cap" : next, share.share(), share.othersShort());
        }
    }

    /** One permit of {@code cap}, or null when the fleet has none now or cannot be asked. */
    private FleetPermitSource.Permit take(String name, Cap cap) {
        try {
            FleetPermitSource.Permit permit = cap.source.tryAcquire();
            if (unreachable) {
                unreachable = false;
                log.info("fleet: {} permits can be taken again", name);
            }
            return permit;
        } catch (RuntimeException e) {
            if (!unreachable) {
                unreachable = true;
                log.error("fleet: could not take a {} permit ({}); runs wait and it is asked again every {} ms",
                        name, e.getMessage(), retryEvery.toMillis());
            }
            return null;
        }
    }

    private void armRetry() {
        if (retryArmed.compareAndSet(false, true)) {
            timers.schedule(retryEvery, () -> {
                retryArmed.set(false);
                for (String name : List.copyOf(retry)) {
                    retry.remove(name);
                    dirty.add(name);
                }
                if (shareTicking) {
                    shareDue.set(true);
                    dirty.add(own.name());
                }
                signal();
            });
        }
    }

    /** Fleet permits of the scheduler's own cap ({@code main}'s, or a pool's) held now (for {@code /status}). */
    public int held() {
        return own.allowance();
    }

    /** Stops taking permits and gives back those not in use; permits in use go back as their runs end. */
    @Override
    public void close() {
        closed = true;
        allDirty.set(true);
        signal();
    }
}
