package dev.laneway.core.time;

import java.time.Duration;

/**
 * Runs a task once after a delay. The engine's only source of timers (debounce, maxWait, typing
 * refresh, retries, the interrupt grace period), so tests can drive time with a manual scheduler.
 * Tasks must be short and must not block: they take a lock, decide, and hand work off.
 */
@FunctionalInterface
public interface Scheduler {

    /** Schedules {@code task} to run once {@code delay} has passed; a zero delay runs it soon. */
    Cancellable schedule(Duration delay, Runnable task);

    /** A scheduled task that has not run yet can be cancelled; cancelling twice is harmless. */
    @FunctionalInterface
    interface Cancellable {
        Cancellable NONE = () -> { };

        void cancel();
    }
}
