package dev.laneway.bench;

import dev.laneway.core.time.Scheduler;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Diagnostic only: the production {@code SystemScheduler} (one daemon timer thread) with one
 * change, {@code setRemoveOnCancelPolicy(true)}, so a cancelled timer leaves the timer queue at
 * once instead of when it would have fired. Lets the benchmark show what that change is worth.
 */
final class RemovingScheduler implements Scheduler, AutoCloseable {

    private final ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, runnable -> {
        Thread thread = new Thread(runnable, "bench-timer");
        thread.setDaemon(true);
        return thread;
    });

    RemovingScheduler() {
        timer.setRemoveOnCancelPolicy(true);
    }

    @Override
    public Cancellable schedule(Duration delay, Runnable task) {
        ScheduledFuture<?> future = timer.schedule(task, Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS);
        return () -> future.cancel(false);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
