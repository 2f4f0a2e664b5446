package dev.laneway.core.engine;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The global admission cap: counts accepted messages not yet settled, across all sessions, and
 * estimates how long a refused sender should wait from recent run times.
 *
 * <p>Concurrency: lock-free counters (without a cap a striped one: every message counts up and down,
 * and one shared counter would be contended by every carrier); the estimate is a moving average
 * updated by finished runs.
 */
final class Admission {

    private static final long DEFAULT_RUN_MILLIS = 5_000;

    private final int maxPending;
    private final int parallelism;
    private final AtomicInteger pending = new AtomicInteger();  // with a cap
    private final LongAdder uncapped = new LongAdder();         // without one
    private final AtomicLong averageRunMillis = new AtomicLong(-1);

    /** @param maxPending 0 disables the cap */
    Admission(int maxPending, int parallelism) {
        this.maxPending = maxPending;
        this.parallelism = Math.max(1, parallelism);
    }

    /** Takes a slot; false when the cap is reached. */
    boolean tryAdmit() {
        if (maxPending == 0) {
            uncapped.increment();
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
    boolean admitRestored() {
        if (maxPending == 0) {
            uncapped.increment();
        } else {
            pending.incrementAndGet();
        }
        return true;
    }

    void release() {
        if (maxPending == 0) {
            uncapped.decrement();
        } else {
            pending.decrementAndGet();
        }
    }

    int pending() {
        return maxPending == 0 ? (int) uncapped.sum() : pending.get();
    }

    /** Folds a finished run's duration into the moving average (weight 1/8). */
    void recordRun(long tookMillis) {
        long millis = Math.max(0, tookMillis);
        while (true) { // a loop, not updateAndGet: no lambda per run
            long avg = averageRunMillis.get();
            if (averageRunMillis.compareAndSet(avg, avg < 0 ? millis : avg + (millis - avg) / 8)) {
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
