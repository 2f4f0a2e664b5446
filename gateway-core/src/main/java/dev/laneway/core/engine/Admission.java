package dev.laneway.core.engine;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The global admission cap: counts accepted messages not yet settled, across all sessions, and
 * estimates how long a refused sender should wait from recent run times.
 *
 * <p>Concurrency: lock-free counters (without a cap a striped one, its cell named by the caller's
 * hint: every message counts up and down, and one shared counter would be contended by every
 * carrier; docs/decisions.md D240); the estimate is a moving average updated by finished runs,
 * written only when it changes (a run as long as the average leaves the shared line unwritten).
 */
final class Admission {

    private static final long DEFAULT_RUN_MILLIS = 5_000;

    private final int maxPending;
    private final int parallelism;
    private final AtomicInteger pending = new AtomicInteger();  // with a cap
    private final StripedCounter uncapped = new StripedCounter(); // without one
    private final AtomicLong averageRunMillis = new AtomicLong(-1);

    /** @param maxPending 0 disables the cap */
    Admission(int maxPending, int parallelism) {
        this.maxPending = maxPending;
        this.parallelism = Math.max(1, parallelism);
    }

    /**
     * Takes a slot; false when the cap is reached. {@code hint} (the message's session hash, say)
     * spreads the uncapped count over its cells; any hint counts the same.
     */
    boolean tryAdmit(int hint) {
        if (maxPending == 0) {
            uncapped.increment(hint);
            return true;
        }
        while (true) {
            int now = pending.get();
            if (now >= maxPending) {
                return false;
            }
            if (pending.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    /** A message restored from the journal was accepted before the restart: it always gets a slot. */
    boolean admitRestored(int hint) {
        if (maxPending == 0) {
            uncapped.increment(hint);
        } else {
            pending.incrementAndGet();
        }
        return true;
    }

    /** Gives a slot back; {@code hint} need not be the one it was taken with. */
    void release(int hint) {
        if (maxPending == 0) {
            uncapped.decrement(hint);
        } else {
            pending.decrementAndGet();
        }
    }

    int pending() {
        // a slot taken and given back on two cells, read half-way, could show one less than none
        return maxPending == 0 ? (int) Math.max(0, uncapped.sum()) : pending.get();
    }

    /** Folds a finished run's duration into the moving average (weight 1/8). */
    void recordRun(long tookMillis) {
        long millis = Math.max(0, tookMillis);
        while (true) { // a loop, not updateAndGet: no lambda per run
            long avg = averageRunMillis.get();
            long next = avg < 0 ? millis : avg + (millis - avg) / 8;
            // unchanged (the run took the average, give or take 8 ms): no write, so the carriers
            // keep reading one clean line instead of taking it from each other every run
            if (next == avg || averageRunMillis.compareAndSet(avg, next)) {
                return;
            }
        }
    }

    /** The moving average of run durations (5 s before any run ended), in milliseconds. */
    long meanRunMillis() {
        long avg = averageRunMillis.get();
        return avg < 0 ? DEFAULT_RUN_MILLIS : avg;
    }

    /** Seconds until a slot is likely free: the pending work spread over the main lane, at least 1. */
    long retryAfterSeconds() {
        long avg = averageRunMillis.get() < 0 ? DEFAULT_RUN_MILLIS : averageRunMillis.get();
        long waves = Math.max(1, (pending() + parallelism - 1L) / parallelism);
        long seconds = (avg * waves + 999) / 1000;
        return Math.min(3600, Math.max(1, seconds));
    }
}
