package dev.laneway.core.fleet;

import dev.laneway.core.scheduling.MainScheduler;
import dev.laneway.core.time.Scheduler;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a {@link MainScheduler} fleet-wide (docs/behaviour.md §17, docs/architecture.md §7.1): the
 * scheduler keeps deciding who is next (classes, fair share, aging), and grants only as many slots
 * as the fleet permits this instance holds. When runs wait beyond that allowance, this takes more
 * permits from the {@link FleetPermitSource}; when the allowance exceeds what runs hold and wait
 * for, it trims it and gives the spare permits back. A fleet at its cap is asked again every
 * {@code retryEvery} (another instance's release is not announced), so a waiting run learns of a
 * freed permit within that time.
 *
 * <p>Concurrency: the scheduler tells {@link #demandChanged} from any thread, outside its lock.
 * {@code signals} makes balancing single-threaded: the first signal hands one balancing task to the
 * executor, later ones only count, and the task loops until no signal came during its pass.
 * {@code held} is touched by that task only; its size is the scheduler's allowance. A permit the
 * fleet lost (expired before its renewal) is queued in {@code lost} (concurrent) by the renewing
 * thread and taken off {@code held} and the allowance by the task, so this instance grants one slot
 * fewer until it takes a permit again.
 * {@code retryArmed} keeps at most one retry timer.
 */
public final class FleetAllowance implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(FleetAllowance.class);

    private final MainScheduler scheduler;
    private final FleetPermitSource source;
    private final Executor executor;
    private final Scheduler timers;
    private final Duration retryEvery;
    private final AtomicInteger signals = new AtomicInteger();
    private final AtomicBoolean retryArmed = new AtomicBoolean();
    private final ArrayDeque<FleetPermitSource.Permit> held = new ArrayDeque<>(); // balancing task only
    private final Queue<FleetPermitSource.Permit> lost = new ConcurrentLinkedQueue<>();
    private volatile boolean closed;
    private boolean unreachable; // balancing task only

    private FleetAllowance(MainScheduler scheduler, FleetPermitSource source, Executor executor, Scheduler timers,
                           Duration retryEvery) {
        this.scheduler = scheduler;
        this.source = source;
        this.executor = executor;
        this.timers = timers;
        this.retryEvery = retryEvery;
    }

    /** Gates {@code scheduler} by permits of {@code source} (before the scheduler is used). */
    public static FleetAllowance gate(MainScheduler scheduler, FleetPermitSource source, Executor executor,
                                      Scheduler timers, Duration retryEvery) {
        FleetAllowance allowance = new FleetAllowance(Objects.requireNonNull(scheduler, "scheduler"),
                Objects.requireNonNull(source, "source"), Objects.requireNonNull(executor, "executor"),
                Objects.requireNonNull(timers, "timers"), Objects.requireNonNull(retryEvery, "retryEvery"));
        scheduler.gateBy(allowance::demandChanged);
        source.onLost(allowance::permitLost);
        return allowance;
    }

    /** The demand may have changed: balance (on the executor) unless a balancing task is on its way. */
    void demandChanged() {
        if (signals.getAndIncrement() == 0) {
            executor.execute(this::balance);
        }
    }

    /** A permit held here expired in the fleet before its renewal: it no longer counts here either. */
    void permitLost(FleetPermitSource.Permit permit) {
        lost.add(permit);
        demandChanged();
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
        for (FleetPermitSource.Permit permit = lost.poll(); permit != null; permit = lost.poll()) {
            if (held.remove(permit)) {
                scheduler.loseAllowance(1); // the run holding its slot goes on; the next grant waits for a new permit
                log.warn("fleet: a {} permit expired before its renewal; this instance grants one run fewer until it"
                        + " takes a permit again", scheduler.name());
            }
        }
        for (int spare = scheduler.trimAllowance(); spare > 0; spare--) {
            FleetPermitSource.Permit permit = held.pollLast();
            if (permit != null) {
                permit.release();
            }
        }
        while (!closed && scheduler.allowanceWanted() > 0) { // closed: only trims, as runs end
            FleetPermitSource.Permit permit;
            try {
                permit = source.tryAcquire();
                if (unreachable) {
                    unreachable = false;
                    log.info("fleet: {} permits can be taken again", scheduler.name());
                }
            } catch (RuntimeException e) {
                if (!unreachable) {
                    unreachable = true;
                    log.error("fleet: could not take a {} permit ({}); runs wait and it is asked again every {} ms",
                            scheduler.name(), e.getMessage(), retryEvery.toMillis());
                }
                permit = null;
            }
            if (permit == null) {
                armRetry();
                return;
            }
            held.addLast(permit);
            scheduler.addAllowance(1);
        }
    }

    private void armRetry() {
        if (retryArmed.compareAndSet(false, true)) {
            timers.schedule(retryEvery, () -> {
                retryArmed.set(false);
                demandChanged();
            });
        }
    }

    /** Fleet permits held now (for {@code /status}). */
    public int held() {
        return scheduler.allowance();
    }

    /** Stops taking permits and gives back those not in use; permits in use go back as their runs end. */
    @Override
    public void close() {
        closed = true;
        demandChanged();
    }
}
