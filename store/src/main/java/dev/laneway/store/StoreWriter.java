package dev.laneway.store;

import dev.laneway.store.GroupCommitLoop.Queued;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single writer of the store, with group commit.
 *
 * <p>Threads and ownership:
 * <ul>
 *   <li>One platform thread, {@code laneway-store-writer} (the {@link GroupCommitLoop} it extends), owns the write
 *       connection and its {@link WriteStatements}; no other thread touches them, so they need no lock.
 *       It also owns {@code lastSeqWritten}, {@code retrying} and the backoff.</li>
 *   <li>Any thread may {@link #submit} a {@link WriteOp}: the loop queues it with a future that
 *       completes after the op's transaction commits (or exceptionally if it cannot be committed).
 *       Futures complete on the writer thread, after {@link Events} heard of the op, so the store's
 *       memory is updated before any waiter resumes.</li>
 *   <li>The loop's gate makes its stop the last entry ever queued: every op before it is
 *       committed (or failed) before the thread checkpoints, closes the connection and exits.</li>
 * </ul>
 *
 * <p>Group commit: the loop takes the first queued op, drains whatever else is queued at that moment
 * (up to {@code maxBatch} in all); the writer applies them in one {@code BEGIN IMMEDIATE ... COMMIT}
 * and then completes their futures. When that transaction fails it is rolled back and each op is retried in a
 * transaction of its own, so one bad op (a duplicate sequence number, say) fails alone.
 *
 * <p>Records of ended messages ({@link WriteOp.Settle}) are never dropped: one that cannot be
 * committed (the disk is full, say) is kept in {@code retrying} with its future still open, and
 * written again, all of them in one transaction, when the store's clock says it is due: after 1 s,
 * doubling up to 1 min, checked before the next batch or after an idle wait. Its row stays pending
 * on disk until then, so only a restart before it is written runs that message again. An outage
 * logs one ERROR line when the first record is kept and one INFO line when all are written; at
 * close they are tried once more, and what still fails is logged (one ERROR line) and failed.
 *
 * <p>Expiry: when the store's clock says it is due (every {@code expiryInterval}), before the next
 * batch or after an idle wait of at most that interval, the thread deletes answered rows settled before
 * {@code now - answeredRetention}, at most {@link #EXPIRY_LIMIT} per transaction (the rest on the next
 * turn, without waiting), and reports them so the seen-key set forgets them.
 */
final class StoreWriter extends GroupCommitLoop<WriteOp> {

    private static final Logger log = LoggerFactory.getLogger(StoreWriter.class);
    static final Duration FIRST_RETRY = Duration.ofSeconds(1);
    static final Duration MAX_RETRY = Duration.ofMinutes(1);

    /** What the store hears from the writer thread. Called on that thread: must be quick. */
    interface Events {
        /** A write was committed; called before its future completes. */
        void committed(WriteOp op);

        /** An op could not be committed; called before its future fails. */
        void failed(WriteOp op, Throwable error);

        /** Answered rows were deleted by expiry (committed). */
        void expired(List<WriteStatements.Expired> rows);

        /**
         * A settle could not be committed and is kept to be retried; later {@link #committed} (once
         * a retry commits it) or {@link #failed} (still unwritten at close) follows.
         */
        default void kept(WriteOp.Settle op, Throwable error) {
        }
    }

    private final Path file;
    private final StoreOptions options;
    private final Connection connection;
    private final WriteStatements sql;
    private final Events events;
    private final AtomicLong commits = new AtomicLong();
    private long lastSeqWritten; // writer thread only (after start)
    // settles that could not be committed, oldest first, futures still open; writer thread only
    private final List<Queued<WriteOp>> retrying = new ArrayList<>();
    private Duration retryBackoff = FIRST_RETRY; // writer thread only
    private Instant nextRetry; // writer thread only; when retrying is not empty

    StoreWriter(Path file, StoreOptions options, Connection connection, long lastSeqWritten, Events events)
            throws SQLException {
        super("laneway-store-writer", file, options, log, "store writer");
        this.file = file;
        this.options = options;
        this.connection = connection;
        this.sql = new WriteStatements(connection, options.maxHistoryPerSession());
        this.events = events;
        this.lastSeqWritten = lastSeqWritten;
    }

    /** Transactions committed so far (group commits, single retries and expiry runs). */
    long commits() {
        return commits.get();
    }

    // ---- GroupCommitLoop: called on the writer thread ----

    @Override
    protected void commit(List<Queued<WriteOp>> batch) {
        List<Queued<WriteOp>> writes = new ArrayList<>(batch.size());
        for (Queued<WriteOp> queued : batch) {
            if (queued.op().writes()) {
                writes.add(queued);
            }
        }
        Set<Queued<WriteOp>> failed = Collections.newSetFromMap(new IdentityHashMap<>());
        if (!writes.isEmpty()) {
            try {
                sql.begin();
                for (Queued<WriteOp> queued : writes) {
                    sql.apply(queued.op());
                }
                long maxSeq = maxAppendedSeq(writes);
                if (maxSeq > lastSeqWritten) {
                    sql.raiseLastSequence(maxSeq);
                }
                sql.commit();
                commits.incrementAndGet();
                lastSeqWritten = Math.max(lastSeqWritten, maxSeq);
            } catch (SQLException | RuntimeException e) {
                sql.rollbackQuietly();
                if (writes.size() == 1) {
                    failOrKeep(writes.get(0), e);
                    failed.add(writes.get(0));
                } else {
                    failed.addAll(commitEach(writes, e));
                }
            }
        }
        for (Queued<WriteOp> queued : writes) {
            if (!failed.contains(queued)) {
                report(queued.op());
            }
        }
        for (Queued<WriteOp> queued : batch) {
            if (!failed.contains(queued)) {
                queued.done().complete(null);
            }
        }
    }

    /** After a failed batch: each write in its own transaction; returns those that failed again. */
    private List<Queued<WriteOp>> commitEach(List<Queued<WriteOp>> writes, Exception batchError) {
        log.warn("store: a batch of {} writes failed ({}); retrying them one by one", writes.size(),
                batchError.toString());
        List<Queued<WriteOp>> failed = new ArrayList<>();
        for (Queued<WriteOp> queued : writes) {
            try {
                sql.begin();
                sql.apply(queued.op());
                long seq = maxAppendedSeq(List.of(queued));
                if (seq > lastSeqWritten) {
                    sql.raiseLastSequence(seq);
                }
                sql.commit();
                commits.incrementAndGet();
                lastSeqWritten = Math.max(lastSeqWritten, seq);
            } catch (SQLException | RuntimeException e) {
                sql.rollbackQuietly();
                failOrKeep(queued, e);
                failed.add(queued);
            }
        }
        return failed;
    }

    /** A write that could not be committed: a settle is kept and retried, anything else fails now. */
    private void failOrKeep(Queued<WriteOp> queued, Exception error) {
        if (!(queued.op() instanceof WriteOp.Settle settle)) {
            fail(queued, error);
            return;
        }
        if (retrying.isEmpty()) {
            log.error("store: could not record the end of message {} in {} ({}); keeping such records in memory and"
                    + " writing them again every {} s up to {} s until it works (the messages stay pending on disk"
                    + " until then; further failures are not logged one by one)", settle.seq(), file,
                    error.toString(), FIRST_RETRY.toSeconds(), MAX_RETRY.toSeconds());
            retryBackoff = FIRST_RETRY;
            nextRetry = options.clock().instant().plus(retryBackoff);
        }
        retrying.add(queued);
        try {
            events.kept(settle, error);
        } catch (RuntimeException e) {
            log.warn("store: keep listener threw", e);
        }
    }

    /**
     * Writes the kept settles again, in one transaction, when due (or now, with {@code force}). On
     * success each is reported and its future completes; on failure they stay kept and the next try
     * waits twice as long, at most {@link #MAX_RETRY}.
     */
    @Override
    protected void retryIfDue(boolean force) {
        if (retrying.isEmpty() || !force && options.clock().instant().isBefore(nextRetry)) {
            return;
        }
        try {
            sql.begin();
            for (Queued<WriteOp> queued : retrying) {
                sql.apply(queued.op());
            }
            sql.commit();
            commits.incrementAndGet();
        } catch (SQLException | RuntimeException e) {
            sql.rollbackQuietly();
            retryBackoff = retryBackoff.multipliedBy(2).compareTo(MAX_RETRY) > 0 ? MAX_RETRY : retryBackoff.multipliedBy(2);
            nextRetry = options.clock().instant().plus(retryBackoff);
            log.debug("store: {} kept record(s) still cannot be written: {}", retrying.size(), e.toString());
            return;
        }
        log.info("store: {} kept record(s) of ended messages written; recording works again", retrying.size());
        for (Queued<WriteOp> queued : retrying) {
            report(queued.op());
            queued.done().complete(null);
        }
        retrying.clear();
        nextRetry = null;
    }

    /** At close: the kept settles that could not be written even now fail; their messages run again after a restart. */
    @Override
    protected void failKept() {
        if (retrying.isEmpty()) {
            return;
        }
        log.error("store: {} record(s) of ended messages could not be written before {} closed; those messages"
                + " stay pending and run again after the restart", retrying.size(), file);
        StoreException closing = new StoreException("the store " + file + " closed before the record could be written");
        for (Queued<WriteOp> queued : retrying) {
            fail(queued, closing);
        }
        retrying.clear();
    }

    private void fail(Queued<WriteOp> queued, Exception error) {
        try {
            events.failed(queued.op(), error);
        } catch (RuntimeException e) {
            log.warn("store: failure listener threw", e);
        }
        queued.done().completeExceptionally(
                new StoreException("could not write to the store " + file + ": " + error.getMessage(), error));
    }

    private void report(WriteOp committed) {
        try {
            events.committed(committed);
        } catch (RuntimeException e) {
            log.warn("store: commit listener threw", e);
        }
    }

    private static long maxAppendedSeq(List<Queued<WriteOp>> writes) {
        long max = 0;
        for (Queued<WriteOp> queued : writes) {
            if (queued.op() instanceof WriteOp.Append append) {
                max = Math.max(max, append.entry().seq());
            }
        }
        return max;
    }

    @Override
    protected Instant nextRetry() {
        return retrying.isEmpty() ? null : nextRetry;
    }

    @Override
    protected boolean expire(long cutoff) {
        try {
            sql.begin();
            List<WriteStatements.Expired> rows = sql.expireAnswered(cutoff, EXPIRY_LIMIT);
            if (rows.isEmpty()) {
                sql.rollbackQuietly();
            } else {
                sql.commit();
                commits.incrementAndGet();
                events.expired(rows);
                log.debug("store: {} answered record(s) expired", rows.size());
            }
            return rows.size() == EXPIRY_LIMIT;
        } catch (SQLException | RuntimeException e) {
            sql.rollbackQuietly();
            log.warn("store: expiry of answered records failed, will retry: {}", e.toString());
            return false;
        }
    }

    /** At close: checkpoints the WAL into the database and closes the connection. */
    @Override
    protected void closeConnection() {
        try {
            sql.checkpoint();
        } catch (SQLException e) {
            log.warn("store: final checkpoint of {} failed (the WAL is replayed at the next open): {}", file,
                    e.toString());
        }
        sql.close();
        try {
            connection.close();
        } catch (SQLException e) {
            log.warn("store: closing {} failed: {}", file, e.toString());
        }
    }
}
