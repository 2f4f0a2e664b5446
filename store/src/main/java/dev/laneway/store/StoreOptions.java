package dev.laneway.store;

import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;

/**
 * How a {@link SqliteStore} behaves. {@link #defaults()} is right for production; tests swap in a
 * manual clock with {@link #withClock}.
 *
 * @param maxHistoryPerSession history entries kept per session; older ones are deleted on append
 * @param answeredRetention    how long an "answered" record (the dedupe record of a message that got
 *                             its answer) is kept; after that a redelivery is no longer recognised
 * @param clock                time for settled_at, created_at and the retention (accepted_at is the entry's acceptedAt)
 * @param maxBatch             most writes committed in one transaction (group commit)
 * @param expiryInterval       how often the writer deletes answered records older than the retention
 * @param busyTimeout          how long SQLite waits for a lock before failing
 * @param synchronous          SQLite's {@code synchronous} setting, see {@link Synchronous}
 * @param maxAnsweredKeysInMemory how many answered records the dedupe check keeps in heap; beyond it the
 *                             oldest are looked up in the database instead (only while one of them could
 *                             still be within the retention), so heap does not grow with daily volume
 */
public record StoreOptions(int maxHistoryPerSession, Duration answeredRetention, InstantSource clock, int maxBatch,
                           Duration expiryInterval, Duration busyTimeout, Synchronous synchronous,
                           int maxAnsweredKeysInMemory) {

    /**
     * SQLite's {@code PRAGMA synchronous} in WAL mode.
     * <ul>
     *   <li>{@link #FULL} (the default): every commit fsyncs the WAL, so a commit survives a power
     *       loss or an OS crash, not only a process crash. That is what "accepted = durably recorded"
     *       promises, and group commit pays one fsync per batch, not per message.</li>
     *   <li>{@link #NORMAL}: the WAL is fsynced only at checkpoints. A commit survives {@code kill -9}
     *       (it is in the OS page cache), but the last commits before a power loss may roll back:
     *       accepted messages lost, answered records lost (a redelivery answered twice). The database
     *       itself stays consistent. For disks where fsync is very slow and that risk is acceptable.</li>
     * </ul>
     */
    public enum Synchronous { NORMAL, FULL }

    public StoreOptions {
        Objects.requireNonNull(answeredRetention, "answeredRetention");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(expiryInterval, "expiryInterval");
        Objects.requireNonNull(busyTimeout, "busyTimeout");
        Objects.requireNonNull(synchronous, "synchronous");
        if (maxHistoryPerSession < 1) {
            throw new IllegalArgumentException("maxHistoryPerSession must be >= 1, got " + maxHistoryPerSession);
        }
        if (answeredRetention.isNegative()) {
            throw new IllegalArgumentException("answeredRetention must be >= 0, got " + answeredRetention);
        }
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch must be >= 1, got " + maxBatch);
        }
        if (expiryInterval.isNegative() || expiryInterval.isZero()) {
            throw new IllegalArgumentException("expiryInterval must be > 0, got " + expiryInterval);
        }
        if (busyTimeout.isNegative() || busyTimeout.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("busyTimeout out of range: " + busyTimeout);
        }
        if (maxAnsweredKeysInMemory < 1) {
            throw new IllegalArgumentException("maxAnsweredKeysInMemory must be >= 1, got " + maxAnsweredKeysInMemory);
        }
    }

    /**
     * 200 history entries per session, answered records kept 24 h (the latest 100 000 of them in heap),
     * system clock, batches of 1000.
     */
    public static StoreOptions defaults() {
        return new StoreOptions(200, Duration.ofHours(24), InstantSource.system(), 1000, Duration.ofMinutes(1),
                Duration.ofSeconds(5), Synchronous.FULL, 100_000);
    }

    public StoreOptions withMaxHistoryPerSession(int value) {
        return new StoreOptions(value, answeredRetention, clock, maxBatch, expiryInterval, busyTimeout, synchronous,
                maxAnsweredKeysInMemory);
    }

    public StoreOptions withAnsweredRetention(Duration value) {
        return new StoreOptions(maxHistoryPerSession, value, clock, maxBatch, expiryInterval, busyTimeout,
                synchronous, maxAnsweredKeysInMemory);
    }

    public StoreOptions withClock(InstantSource value) {
        return new StoreOptions(maxHistoryPerSession, answeredRetention, value, maxBatch, expiryInterval,
                busyTimeout, synchronous, maxAnsweredKeysInMemory);
    }

    public StoreOptions withMaxBatch(int value) {
        return new StoreOptions(maxHistoryPerSession, answeredRetention, clock, value, expiryInterval, busyTimeout,
                synchronous, maxAnsweredKeysInMemory);
    }

    public StoreOptions withExpiryInterval(Duration value) {
        return new StoreOptions(maxHistoryPerSession, answeredRetention, clock, maxBatch, value, busyTimeout,
                synchronous, maxAnsweredKeysInMemory);
    }

    public StoreOptions withBusyTimeout(Duration value) {
        return new StoreOptions(maxHistoryPerSession, answeredRetention, clock, maxBatch, expiryInterval, value,
                synchronous, maxAnsweredKeysInMemory);
    }

    public StoreOptions withSynchronous(Synchronous value) {
        return new StoreOptions(maxHistoryPerSession, answeredRetention, clock, maxBatch, expiryInterval,
                busyTimeout, value, maxAnsweredKeysInMemory);
    }

    public StoreOptions withMaxAnsweredKeysInMemory(int value) {
        return new StoreOptions(maxHistoryPerSession, answeredRetention, clock, maxBatch, expiryInterval,
                busyTimeout, synchronous, value);
    }
}
