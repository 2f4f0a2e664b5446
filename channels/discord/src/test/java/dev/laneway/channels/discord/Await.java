package dev.laneway.channels.discord;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits for a condition with a generous deadline (the machine may be loaded); never a fixed sleep. */
final class Await {

    static final Duration DEADLINE = Duration.ofSeconds(20);

    private Await() {
    }

    static void until(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + DEADLINE.toSeconds() + " s waiting for " + what);
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what, e);
            }
        }
    }
}
