package dev.laneway.bench;

/**
 * Busy-waiting for the benchmark thread: the cheapest way to notice a hand-off on another thread.
 * Yields now and then so the two cores stay shared, and gives up after a generous deadline so a
 * lost run fails the benchmark instead of hanging it.
 */
final class Spin {

    private static final long GIVE_UP_NANOS = 30_000_000_000L;

    private long spins;
    private long since;

    /** Call once per failed check; {@code what} names the wait in the failure. */
    void pause(String what) {
        long n = ++spins;
        if ((n & 0xFF) != 0) {
            Thread.onSpinWait();
            return;
        }
        Thread.yield();
        long now = System.nanoTime();
        if (n == 256) {
            since = now;
        } else if (now - since > GIVE_UP_NANOS) {
            throw new IllegalStateException("gave up waiting 30 s for " + what);
        }
    }

    /** Call once the condition holds, before the next wait. */
    void reset() {
        spins = 0;
    }
}
