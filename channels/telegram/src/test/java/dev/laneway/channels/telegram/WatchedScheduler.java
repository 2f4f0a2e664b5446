package dev.laneway.channels.telegram;

import dev.laneway.core.time.Scheduler;
import dev.laneway.core.time.SystemScheduler;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The gateway's scheduler in the integration tests: the system one, plus a count of timers that
 * are scheduled and have neither finished running nor been cancelled. The scheduler is the
 * gateway's only source of later work (typing refresh, debounce, retries), so once
 * {@link #pending()} is 0 and no message comes in, nothing more is started: a test can check that
 * something stopped without waiting for time to pass.
 *
 * <p>Concurrency: each timer's state moves once, by compare-and-set, from {@code SCHEDULED} to
 * {@code RUNNING} (then {@code DONE}) or to {@code CANCELLED}; {@code pending} counts the timers in
 * the first two states. A task that schedules its successor does so while it is still counted as
 * running, so a self-renewing timer never lets {@code pending} touch 0.
 */
final class WatchedScheduler implements Scheduler, AutoCloseable {

    private static final int SCHEDULED = 0;
    private static final int RUNNING = 1;
    private static final int DONE = 2;
    private static final int CANCELLED = 3;

    private final SystemScheduler delegate = new SystemScheduler();
    private final AtomicInteger pending = new AtomicInteger();

    @Override
    public Cancellable schedule(Duration delay, Runnable task) {
        AtomicInteger state = new AtomicInteger(SCHEDULED);
        pending.incrementAndGet();
        Cancellable timer = delegate.schedule(delay, () -> {
            if (!state.compareAndSet(SCHEDULED, RUNNING)) {
                return;                 // cancelled just as it fell due
            }
            try {
                task.run();
            } finally {
                state.set(DONE);
                pending.decrementAndGet();
            }
        });
        return () -> {
            if (state.compareAndSet(SCHEDULED, CANCELLED)) {
                timer.cancel();
                pending.decrementAndGet();
            }
        };
    }

    /** Timers scheduled that have not finished running and were not cancelled. */
    int pending() {
        return pending.get();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
