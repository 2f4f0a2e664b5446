package dev.laneway.channels.telegram;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waits for a condition that another thread makes true (integration tests only). */
final class Await {

    static final Duration DEFAULT = Duration.ofSeconds(10);

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
            pause(10);
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

    /** Lets time pass for checks that something does NOT happen. */
    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
