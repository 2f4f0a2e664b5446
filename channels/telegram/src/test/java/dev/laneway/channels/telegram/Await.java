package dev.laneway.channels.telegram;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waits for a condition that another thread makes true (integration tests only). There is no
 * "let time pass": a check that something did NOT happen waits for an event after which it could no
 * longer happen (see {@link Rig#awaitQuiet}, {@link PollLog}, {@link WatchedScheduler}).
 */
final class Await {

    static final Duration DEFAULT = Duration.ofSeconds(10);
    /** How soon a wait notices its condition; it never decides whether the wait passes. */
    private static final Duration RECHECK = Duration.ofMillis(5);

    private Await() {
    }

    static void until(String what, BooleanSupplier condition) {
        until(what, DEFAULT, condition);
    }

    static void until(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for " + what);
            }
            recheckDelay(what);
        }
    }

    private static void recheckDelay(String what) {
        try {
            Thread.sleep(RECHECK);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for " + what, e);
        }
    }

    /** Waits until {@code value} has a non-null result and returns it. */
    static <T> T value(String what, Supplier<T> value) {
        Object[] holder = new Object[1];
        until(what, () -> (holder[0] = value.get()) != null);
        @SuppressWarnings("unchecked")
        T result = (T) holder[0];
        return result;
    }
}
