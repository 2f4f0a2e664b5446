package dev.laneway.agents.pool;

import dev.laneway.core.UrlRedactor;
import dev.laneway.core.agent.settings.ProviderSettings;
import dev.laneway.core.fleet.FleetAllowance;
import dev.laneway.core.fleet.FleetCaps;
import dev.laneway.core.lane.LanePermit;
import dev.laneway.core.scheduling.Claim;
import dev.laneway.core.scheduling.MainScheduler;
import dev.laneway.core.scheduling.SchedulingObserver;
import dev.laneway.core.scheduling.SchedulingSettings;
import dev.laneway.core.time.Scheduler;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shared capacity of one model endpoint (docs/behaviour.md §14): the runs of every agent that
 * calls it take a {@link Lease} for each model call and give it back when the call is over, so tool
 * execution and the time between calls hold no model capacity.
 *
 * <ul>
 *   <li><b>Order</b>: permits are handed out by a {@link MainScheduler} of the pool's own, so waiting
 *       for the endpoint follows the scheduler's classes and fair share (the run's {@link Claim}). A
 *       run calling again after a 429 or a failure asks at the head of its class.</li>
 *   <li><b>Concurrency</b>: {@code maxConcurrent}, or the {@link AdaptiveLimit} below it. In a fleet
 *       ({@link #fleetWide}) {@code maxConcurrent} counts the calls of every instance: the pool's
 *       scheduler grants only as many as the {@code provider:<name>} fleet permits held here, and
 *       this instance's adaptive limit bounds how many of them it asks for (docs/behaviour.md §14.5).</li>
 *   <li><b>Rate</b>: {@code rpm} and {@code tpm} ({@link RateBuckets}); a call that must wait for
 *       them pauses the pool until then, holding its permit.</li>
 *   <li><b>429</b>: the pool pauses until the {@code Retry-After} (once, however many calls got it),
 *       and the adaptive limit shrinks.</li>
 *   <li><b>Circuit</b>: {@link CircuitGate}; while open, {@link #lease} fails at once.</li>
 * </ul>
 *
 * <p>Concurrency: {@code lock} guards the adaptive limit, the buckets and the log-once flags. The
 * permits' scheduler has its own lock and completes its futures outside it; this class may call it
 * while holding {@code lock} (the scheduler never calls back under its lock), never the other way
 * round. Leases are completed outside {@code lock}.
 */
public final class ProviderPool {

    private static final Logger log = LoggerFactory.getLogger(ProviderPool.class);
    /** The scheduler's cap for a pool without a concurrency limit of its own. */
    static final int UNLIMITED = Integer.MAX_VALUE;
    private static final Duration WARN_AFTER = Duration.ofMinutes(10);

    /** Odd {@code Retry-After} values, each logged once per pool. */
    public enum RetryAfterProblem {
        MALFORMED, CLAMPED
    }

    private final ProviderSettings settings;
    private final String name;
    private final InstantSource clock;
    private final Scheduler timers;
    private final PoolObserver observer;
    private final MainScheduler permits;
    private final CircuitGate circuit;
    private final ReentrantLock lock = new ReentrantLock();
    private final AdaptiveLimit adaptive;           // guarded by lock; null unless adaptive
    private final RateBuckets buckets;              // guarded by lock
    private final Set<RetryAfterProblem> logged = EnumSet.noneOf(RetryAfterProblem.class); // guarded by lock
    private long grants;                            // guarded by lock: leases granted so far
    private volatile FleetAllowance fleet;          // set once, before use; null unless fleet-wide

    public ProviderPool(ProviderSettings settings, SchedulingSettings scheduling, InstantSource clock, Scheduler timers,
                        PoolObserver observer) {
        this.settings = settings;
        this.name = settings.name();
        this.clock = clock;
        this.timers = timers;
        this.observer = observer;
        this.adaptive = settings.adaptive() ? new AdaptiveLimit(settings.maxConcurrent()) : null;
        int cap = adaptive != null ? adaptive.limit() : settings.maxConcurrent() > 0 ? settings.maxConcurrent() : UNLIMITED;
        this.permits = new MainScheduler("provider:" + name, scheduling, cap, clock, WARN_AFTER, SchedulingObserver.NONE);
        this.buckets = new RateBuckets(settings.rpm(), settings.tpm(), clock.millis());
        this.circuit = new CircuitGate(name, settings.circuit(), clock, this::circuitMoved);
    }

    public String name() {
        return name;
    }

    /** The name of its fleet-wide cap: {@code provider:<name>}. */
    public String capName() {
        return permits.name();
    }

    /**
     * Makes {@code maxConcurrent} fleet-wide (before the pool is used): calls take a permit of the
     * fleet's cap {@code provider:<name>} of that size. A pool without a {@code maxConcurrent} has no
     * limit to share and is left alone.
     */
    void fleetWide(FleetCaps caps, Executor executor, Duration retryEvery) {
        if (settings.maxConcurrent() > 0 && fleet == null) {
            fleet = FleetAllowance.gate(permits, caps.permits(permits.name(), settings.maxConcurrent()), executor,
                    timers, retryEvery);
        }
    }

    /** Fleet permits this instance holds for the pool's calls; -1 when its limit is not fleet-wide. */
    public int fleetPermits() {
        FleetAllowance held = fleet;
        return held == null ? -1 : held.held();
    }

    public ProviderSettings settings() {
        return settings;
    }

    /**
     * Asks for a model call. The future completes with a lease once the call may go out (in the
     * scheduler's order, within the limits), or fails with {@link PoolUnavailable} when the circuit is
     * open, at once or when the permit comes. Cancelling it withdraws the request; a lease granted
     * meanwhile is closed. {@code again}: the run already had its turn (a retry): it asks at the head
     * of its class.
     */
    public CompletableFuture<Lease> lease(Claim claim, boolean again) {
        if (circuit.refusesNow()) {
            observer.failedFast(name);
            return CompletableFuture.failedFuture(new PoolUnavailable(name));
        }
        long askedAt = clock.millis();
        CompletableFuture<Lease> result = new CompletableFuture<>();
        LanePermit now = again ? null : permits.acquireIfFree(claim);
        if (now != null) {
            granted(claim, askedAt, now, result);
            return result;
        }
        CompletableFuture<LanePermit> waiting = again ? permits.acquireFirst(claim) : permits.acquire(claim);
        result.whenComplete((lease, error) -> {
            if (result.isCancelled()) {
                waiting.cancel(false); // withdraws; a permit granted meanwhile goes straight back
            }
        });
        waiting.thenAccept(permit -> granted(claim, askedAt, permit, result));
        return result;
    }

    private void granted(Claim claim, long askedAt, LanePermit permit, CompletableFuture<Lease> result) {
        long now = clock.millis();
        observer.waited(name, claim.priority(), Duration.ofMillis(Math.max(0, now - askedAt)));
        if (result.isDone()) {
            permit.close(); // withdrawn between the grant and now
            return;
        }
        if (!circuit.tryAcquire()) {
            permit.close();
            observer.failedFast(name);
            result.completeExceptionally(new PoolUnavailable(name));
            return;
        }
        Lease lease;
        long wait;
        lock.lock();
        try {
            lease = new Lease(this, permit, permits.laneSnapshot().active(), ++grants);
            wait = buckets.limited() ? buckets.reserveCall(now) : 0;
        } finally {
            lock.unlock();
        }
        if (wait > 0) {
            // nobody else starts before this call's rate slot; one timer ends both
            permits.pauseUntil(clock.instant().plusMillis(wait));
            timers.schedule(Duration.ofMillis(wait), () -> {
                deliver(lease, result);
                resumeWhenDue();
            });
        } else {
            deliver(lease, result);
        }
    }

    private void deliver(Lease lease, CompletableFuture<Lease> result) {
        lease.started(clock.millis());
        if (!result.complete(lease)) {
            lease.close(); // the run stopped asking meanwhile
        }
    }

    /** Pauses every grant for {@code pause}; a longer pause already on wins. */
    private boolean pauseFor(Duration pause) {
        if (!pause.isPositive()) {
            return false;
        }
        Instant until = clock.instant().plus(pause);
        if (!permits.pauseUntil(until)) {
            return false;
        }
        timers.schedule(pause, this::resumeWhenDue);
        return true;
    }

    /**
     * Ends the pause when its end has come by the pool's clock; if the timer fired early by that
     * clock (the wall clock stepped back, or a longer pause came meanwhile), waits for the rest
     * instead of leaving the pool paused with nothing to wake it.
     */
    private void resumeWhenDue() {
        Optional<Instant> until = permits.pausedUntil();
        if (until.isPresent()) {
            long left = Math.max(1, until.get().toEpochMilli() - clock.millis());
            timers.schedule(Duration.ofMillis(left), this::resumeWhenDue);
            return;
        }
        permits.resume();
    }

    // ---- reports from leases

    void succeeded(Lease lease, Usage usage) {
        circuit.succeeded(took(lease));
        lock.lock();
        try {
            buckets.spend(clock.millis(), usage.total());
            if (adaptive != null && adaptive.succeeded(lease.inFlight())) {
                limitChanged();
            }
        } finally {
            lock.unlock();
        }
    }

    void rateLimited(Lease lease, Duration pause) {
        circuit.released(); // a 429 says the endpoint is busy, not broken
        lock.lock();
        try {
            if (adaptive != null && adaptive.pushedBack(lease.grant(), lease.inFlight(), grants)) {
                limitChanged();
            }
        } finally {
            lock.unlock();
        }
        if (pauseFor(pause)) {
            log.info("provider pool {}: 429 from the provider; no model call through it for {} ms", name,
                    pause.toMillis());
            observer.rateLimited(name, pause);
        }
    }

    void failed(Lease lease, boolean timeout) {
        circuit.failed(took(lease));
        if (timeout && adaptive != null) {
            lock.lock();
            try {
                if (adaptive.pushedBack(lease.grant(), lease.inFlight(), grants)) {
                    limitChanged();
                }
            } finally {
                lock.unlock();
            }
        }
    }

    void released(Lease lease) {
        circuit.released();
    }

    /** Under {@code lock}: the adaptive limit moved; the scheduler's cap follows. */
    private void limitChanged() {
        int limit = adaptive.limit();
        permits.setCap(limit);
        log.debug("provider pool {}: concurrency limit now {} (ceiling {})", name, limit, adaptive.ceiling());
        observer.limit(name, limit);
    }

    private Duration took(Lease lease) {
        return Duration.ofMillis(Math.max(0, clock.millis() - lease.startedAtMillis()));
    }

    private void circuitMoved(CircuitGate.State state) {
        switch (state) {
            case OPEN -> log.warn("provider pool {} ({}): circuit open after repeated failures; its runs fail at once"
                    + " for {} s, then one call probes", name, UrlRedactor.redact(settings.baseUrl()),
                    settings.circuit().openFor().toSeconds());
            case HALF_OPEN -> log.info("provider pool {}: circuit half-open; one call probes the provider", name);
            case CLOSED -> log.info("provider pool {}: circuit closed; the provider answers again", name);
        }
        observer.circuit(name, state.id());
    }

    /**
     * A provider's {@code Retry-After} was malformed or absurd and was replaced or clamped: logged once
     * per pool and kind, since a misbehaving provider would otherwise fill the log.
     */
    public void retryAfterProblem(RetryAfterProblem problem, String raw, Duration used) {
        lock.lock();
        try {
            if (!logged.add(problem)) {
                return;
            }
        } finally {
            lock.unlock();
        }
        String shown = raw == null ? "" : raw.length() > 60 ? raw.substring(0, 60) + "…" : raw;
        log.warn("provider pool {}: Retry-After \"{}\" is {}; waiting {} ms instead (logged once per pool)", name,
                shown, problem == RetryAfterProblem.MALFORMED ? "not a number of seconds or an HTTP date" : "too long",
                used.toMillis());
    }

    public PoolSnapshot snapshot() {
        var lane = permits.laneSnapshot();
        int limit;
        lock.lock();
        try {
            limit = adaptive != null ? adaptive.limit() : settings.maxConcurrent();
        } finally {
            lock.unlock();
        }
        return new PoolSnapshot(name, settings.endpointKey(), limit, settings.maxConcurrent(), lane.active(),
                lane.queued(), permits.pausedUntil(), circuit.state().id(), fleetPermits());
    }
}
