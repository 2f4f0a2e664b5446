package dev.laneway.core.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waits for a condition that another thread makes true (tests that drive real SDKs, servers or
 * threads), with a generous deadline because the machine may be loaded. There is no "let time
 * pass": a check that something did NOT happen waits for an event after which it could no longer
 * happen (the gateway idle, a scheduler with nothing pending), never for a fixed time.
 */
public final class Await {

    public static final Duration DEFAULT = Duration.ofSeconds(20);
    /** How soon a wait notices its condition; it never decides whether the wait passes. */
    private static final Duration RECHECK = Duration.ofMillis(5);

    private Await() {
    }

    public static void until(String what, BooleanSupplier condition) {
        until(what, DEFAULT, condition);
    }

    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for " + what);
            }
            try {
                Thread.sleep(RECHECK);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what, e);
            }
        }
    }

    /** Waits until {@code value} has a non-null result and returns it. */
    public static <T> T value(String what, Supplier<T> value) {
        Object[] holder = new Object[1];
        until(what, () -> (holder[0] = value.get()) != null);
        @SuppressWarnings("unchecked")
        T result = (T) holder[0];
        return result;
    }
}
