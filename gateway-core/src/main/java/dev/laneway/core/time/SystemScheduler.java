package dev.laneway.core.time;

import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The production scheduler: one daemon platform thread. Tasks are short by contract; a task that
 * throws is logged and never kills the timer thread.
 */
public final class SystemScheduler implements Scheduler, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SystemScheduler.class);

    private final ScheduledThreadPoolExecutor timer = newTimer();

    private static ScheduledThreadPoolExecutor newTimer() {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread thread = new Thread(r, "laneway-timer");
            thread.setDaemon(true);
            return thread;
        });
        // debounce and typing timers are cancelled all the time: drop them at once instead of
        // keeping each until its due time (measured in bench: GC pressure and tail latency)
        executor.setRemoveOnCancelPolicy(true);
        return executor;
    }

    @Override
    public Cancellable schedule(Duration delay, Runnable task) {
        long nanos = Math.max(0, delay.toNanos());
        ScheduledFuture<?> future = timer.schedule(() -> runGuarded(task), nanos, TimeUnit.NANOSECONDS);
        return () -> future.cancel(false);
    }

    private static void runGuarded(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException | Error e) {
            log.error("scheduled task failed", e);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
