package dev.laneway.store.redis;

import dev.laneway.store.GroupCommitLoop;
import dev.laneway.store.GroupCommitLoop.Queued;
import dev.laneway.store.StoreException;
import dev.laneway.store.StoreOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Response;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * The single writer of the Redis store, with group commit: the same shape as the SQLite store's
 * writer, with {@code MULTI ... EXEC} for a transaction.
 *
 * <p>Threads and ownership:
 * <ul>
 *   <li>One platform thread, {@code laneway-redis-writer} (the {@link GroupCommitLoop} it extends, as the
 *       SQLite store's writer does), owns the write connection ({@code jedis}); no other thread touches it.
 *       It also owns {@code retrying}, the backoff, {@code flushesAwaitingKept} and
 *       {@code outage}.</li>
 *   <li>Any thread may {@link #submit} a {@link RedisOp}: the loop queues it with a future that
 *       completes once Redis acknowledged the op's transaction (or exceptionally when it cannot be
 *       written). Futures complete on the writer thread after {@link Events} heard of the op.</li>
 *   <li>The loop's gate makes its stop the last entry ever queued.</li>
 * </ul>
 *
 * <p>Group commit: the loop takes the first queued op, drains what else is queued (up to
 * {@code maxBatch} in all); the writer sends them as one {@code MULTI ... EXEC}, one round trip. Each journal
 * op is a script, atomic on its own; an op Redis refuses (a duplicate sequence number) fails alone.
 * When Redis discards the whole transaction ({@code EXECABORT}: a command refused while queued, as
 * when Redis is out of memory) each op is sent again in a transaction of its own.
 *
 * <p>Durable means acknowledged by Redis (docs/behaviour.md §9.7): what that survives is Redis's own
 * persistence ({@code appendonly}, {@code appendfsync}). A lost connection leaves a batch's outcome
 * unknown: its appends are checked on a new connection ({@code HEXISTS} of their sequence numbers):
 * those Redis has are accepted, the others (or all, when Redis cannot be asked at once) fail, and the
 * gateway refuses those messages; its settles are kept, like settles Redis refuses, and written again after 1 s,
 * doubling up to 1 min (settling is idempotent); a fenced settle Redis refused because its lease moved on
 * ({@code LANEWAY_FENCED}, docs/architecture.md §7.1) fails at once and is never retried. The next batch connects again. An outage logs one
 * ERROR line when it begins and one INFO line when Redis answers again.
 *
 * <p>Expiry: every {@code expiryInterval} by the store's clock, the thread deletes answered records
 * older than the retention, at most {@link #EXPIRY_LIMIT} per call.
 */
final class RedisWriter extends GroupCommitLoop<RedisOp> {

    private static final Logger log = LoggerFactory.getLogger(RedisWriter.class);
    static final Duration FIRST_RETRY = Duration.ofSeconds(1);
    static final Duration MAX_RETRY = Duration.ofMinutes(1);

    /** Opens a connection ready for writing (scripts loaded, fleet checked); throws when it cannot. */
    interface Connector {
        Jedis connect();
    }

    /** What the store hears from the writer thread. Called on that thread: must be quick. */
    interface Events {
        /** A write was acknowledged; called before its future completes. */
        void committed(RedisOp op);

        /** A write failed for good; called before its future fails. */
        void failed(RedisOp op, Throwable error);

        /** A settle could not be written and is kept to be retried. */
        default void kept(RedisOp.Settle op, Throwable error) {
        }
    }

    private final RedisTarget target;
    private final RedisKeys keys;
    private final StoreOptions options;
    private final Connector connector;
    private final Events events;
    private final AtomicLong commits = new AtomicLong();
    private Jedis jedis; // writer thread only (after start)
    private volatile boolean outage; // written by the writer thread only; read by readiness
    private final List<Queued<RedisOp>> retrying = new ArrayList<>(); // writer thread only; futures still open
    private Duration retryBackoff = FIRST_RETRY; // writer thread only
    private Instant nextRetry; // writer thread only; set while retrying is not empty
    private final List<Queued<RedisOp>> flushesAwaitingKept = new ArrayList<>(); // writer thread only; empty while retrying is

    RedisWriter(RedisTarget target, RedisKeys keys, StoreOptions options, Jedis connected, Connector connector,
                Events events) {
        super("laneway-redis-writer", target, options, log, "redis writer");
        this.target = target;
        this.keys = keys;
        this.options = options;
        this.jedis = connected;
        this.connector = connector;
        this.events = events;
    }

    /** Whether the connection was lost and no write has reached Redis since. */
    boolean inOutage() {
        return outage;
    }

    /** Transactions Redis acknowledged so far (group commits, single retries). */
    long commits() {
        return commits.get();
    }

    // ---- GroupCommitLoop: called on the writer thread ----

    @Override
    protected void commit(List<Queued<RedisOp>> batch) {
        List<Queued<RedisOp>> writes = new ArrayList<>(batch.size());
        for (Queued<RedisOp> queued : batch) {
            if (queued.op().writes()) {
                writes.add(queued);
            }
        }
        if (!writes.isEmpty()) {
            List<Throwable> errors = confirmLanded(writes, write(writes));
            List<Queued<RedisOp>> again = new ArrayList<>();
            for (int i = 0; i < writes.size(); i++) {
                Throwable error = errors.get(i);
                if (error instanceof JedisNoScriptException) {
                    again.add(writes.get(i));
                } else if (error != null) {
                    failOrKeep(writes.get(i), error);
                } else {
                    report(writes.get(i).op());
                    writes.get(i).done().complete(null);
                }
            }
            if (!again.isEmpty()) {
                writeEachAfterLoadingScripts(again);
            }
        }
        for (Queued<RedisOp> queued : batch) {
            if (queued.op() instanceof RedisOp.Flush flush && flush.awaitKept() && !retrying.isEmpty()) {
                flushesAwaitingKept.add(queued); // completes once the kept settles ahead of it are written
            } else if (!queued.op().writes()) {
                queued.done().complete(null);
            }
        }
    }

    /** Nothing is kept for a retry any more: the flushes that waited for it complete. */
    private void releaseFlushes() {
        flushesAwaitingKept.forEach(queued -> queued.done().complete(null));
        flushesAwaitingKept.clear();
    }

    /**
     * Sends the ops as one transaction; returns each op's error (null when it was written). A
     * discarded transaction is sent again op by op; a lost connection fails every op with it.
     */
    private List<Throwable> write(List<Queued<RedisOp>> writes) {
        try {
            return transaction(writes);
        } catch (JedisConnectionException | StoreException e) {
            return lost(writes, e);
        } catch (JedisDataException e) {
            if (writes.size() == 1) {
                return List.of(e);
            }
            log.warn("store: Redis discarded a batch of {} writes ({}); writing them one by one", writes.size(),
                    e.getMessage());
            List<Throwable> errors = new ArrayList<>(writes.size());
            for (Queued<RedisOp> queued : writes) {
                errors.add(write(List.of(queued)).get(0));
            }
            return errors;
        }
    }

    /**
     * The connection was lost after the batch was sent, so whether its appends landed is unknown: on a
     * new connection (when Redis answers at once), {@code HEXISTS journal <seq>} says for each. One that
     * landed is accepted (its error cleared), one that did not keeps its error and is refused; when
     * Redis cannot be asked, every one keeps its error, as before (docs/behaviour.md §9.7). An append's
     * sequence number is this instance's own, so only its own append can have put it there.
     */
    private List<Throwable> confirmLanded(List<Queued<RedisOp>> writes, List<Throwable> errors) {
        List<Integer> unknown = new ArrayList<>();
        for (int i = 0; i < writes.size(); i++) {
            if (errors.get(i) instanceof OutcomeUnknown && writes.get(i).op() instanceof RedisOp.Append) {
                unknown.add(i);
            }
        }
        if (unknown.isEmpty()) {
            return errors;
        }
        List<Throwable> checked = new ArrayList<>(errors);
        try {
            Jedis connection = connection();
            redis.clients.jedis.Pipeline pipeline = connection.pipelined();
            List<Response<Boolean>> landed = new ArrayList<>(unknown.size());
            for (int i : unknown) {
                landed.add(pipeline.hexists(keys.journal(), Long.toString(((RedisOp.Append) writes.get(i).op()).seq())));
            }
            pipeline.sync();
            for (int k = 0; k < unknown.size(); k++) {
                long seq = ((RedisOp.Append) writes.get(unknown.get(k)).op()).seq();
                if (landed.get(k).get()) {
                    checked.set(unknown.get(k), null);
                    log.warn("store: the reply to the append of message {} was lost with the connection; Redis has"
                            + " it, so it is accepted", seq);
                } else {
                    log.warn("store: the append of message {} was cut off with the connection and Redis does not"
                            + " have it; the message is refused", seq);
                }
            }
        } catch (JedisException | StoreException e) {
            closeConnection();
            log.debug("store: could not ask Redis whether {} append(s) landed ({}); they are refused", unknown.size(),
                    e.toString());
        }
        return checked;
    }

    /** A batch whose connection was lost after it was sent: it may or may not have been executed. */
    static final class OutcomeUnknown extends RuntimeException {
        OutcomeUnknown(RuntimeException cause) {
            super("the connection to Redis was lost before it answered: " + cause.getMessage(), cause);
        }
    }

    /** Scripts were missing (Redis's script cache was flushed): load them and write these ops again, one by one. */
    private void writeEachAfterLoadingScripts(List<Queued<RedisOp>> ops) {
        try {
            RedisScripts.load(connection());
        } catch (JedisException | StoreException e) {
            log.debug("store: loading the scripts failed: {}", e.toString());
        }
        for (Queued<RedisOp> queued : ops) {
            Throwable error = write(List.of(queued)).get(0);
            if (error != null) {
                failOrKeep(queued, error);
            } else {
                report(queued.op());
                queued.done().complete(null);
            }
        }
    }

    private List<Throwable> transaction(List<Queued<RedisOp>> writes) {
        Jedis connection = connection();
        List<List<Response<?>>> responses = new ArrayList<>(writes.size());
        try (Transaction transaction = connection.multi()) {
            for (Queued<RedisOp> queued : writes) {
                responses.add(queue(transaction, queued.op()));
            }
            transaction.exec();
        }
        commits.incrementAndGet();
        List<Throwable> errors = new ArrayList<>(writes.size());
        for (List<Response<?>> opResponses : responses) {
            Throwable error = null;
            for (Response<?> response : opResponses) {
                try {
                    response.get();
                } catch (JedisDataException e) {
                    error = e;
                }
            }
            errors.add(error);
        }
        return errors;
    }

    private List<Response<?>> queue(Transaction t, RedisOp op) {
        return switch (op) {
            case RedisOp.Append append -> List.of(t.evalsha(RedisScripts.APPEND.sha(),
                    List.of(keys.journal(), keys.pending(), keys.pendingKeys(), keys.seq(),
                            keys.sessionPending(append.session()), keys.pendingSessions()),
                    List.of(Long.toString(append.seq()), append.json(), append.key() == null ? "" : append.key(),
                            append.session())));
            case RedisOp.Settle settle -> settle.fenced()
                    ? List.of(t.evalsha(RedisScripts.SETTLE_FENCED.sha(),
                            List.of(keys.journal(), keys.pending(), keys.pendingKeys(), keys.answered(), settle.leaseKey()),
                            List.of(Long.toString(settle.seq()), settle.answered() ? "1" : "0",
                                    Long.toString(settle.atMillis()), keys.prefix(), Long.toString(settle.token()))))
                    : List.of(t.evalsha(RedisScripts.SETTLE.sha(),
                            List.of(keys.journal(), keys.pending(), keys.pendingKeys(), keys.answered()),
                            List.of(Long.toString(settle.seq()), settle.answered() ? "1" : "0",
                                    Long.toString(settle.atMillis()), keys.prefix())));
            case RedisOp.LiveShown shown -> List.of(t.evalsha(RedisScripts.LIVE_SHOWN.sha(),
                    List.of(keys.journal(), keys.live(shown.seq())),
                    List.of(Long.toString(shown.seq()), shown.messageId(), shown.json())));
            case RedisOp.LiveGone gone -> List.of(t.hdel(keys.live(gone.seq()), gone.messageId()));
            case RedisOp.AppendHistory history -> {
                String key = keys.history(history.session());
                String[] values = history.entries().stream().map(RedisCodec::history).toArray(String[]::new);
                yield List.of(t.rpush(key, values), t.ltrim(key, -options.maxHistoryPerSession(), -1));
            }
            case RedisOp.ClearHistory clear -> List.of(t.del(keys.history(clear.session())));
            case RedisOp.SetOverride set -> set.override() == null || set.override().isEmpty()
                    ? List.of(t.hdel(keys.overrides(), set.session()))
                    : List.of(t.hset(keys.overrides(), set.session(), RedisCodec.override(set.override())));
            case RedisOp.RecordFire fire -> List.of(t.hset(keys.fires(), fire.jobId(), fire.firedAt().toString()));
            case RedisOp.Flush flush -> List.of();
        };
    }

    /** The connection was lost mid-batch: every op's outcome is unknown; connect again next time. */
    private List<Throwable> lost(List<Queued<RedisOp>> writes, RuntimeException e) {
        closeConnection();
        if (!outage) {
            outage = true;
            log.error("store: lost the connection to Redis at {} ({}); accepting messages fails until it answers"
                    + " again, records of ended messages are kept and written then", target.redactedUrl(), e.getMessage());
        }
        List<Throwable> errors = new ArrayList<>(writes.size());
        OutcomeUnknown unknown = new OutcomeUnknown(e);
        writes.forEach(w -> errors.add(unknown));
        return errors;
    }

    private Jedis connection() {
        if (jedis == null) {
            jedis = connector.connect();
            if (outage) {
                outage = false;
                log.info("store: Redis at {} answers again", target.redactedUrl());
            }
        }
        return jedis;
    }

    /** Closes the connection (a lost one, or at close); the next write connects again. */
    @Override
    protected void closeConnection() {
        if (jedis != null) {
            try {
                jedis.close();
            } catch (RuntimeException e) {
                log.debug("store: closing the Redis connection failed: {}", e.toString());
            }
            jedis = null;
        }
    }

    /** A write that could not be made: a settle is kept and retried, anything else fails now. */
    private void failOrKeep(Queued<RedisOp> queued, Throwable error) {
        if (!(queued.op() instanceof RedisOp.Settle settle) || isFenced(error)) {
            fail(queued, error); // a fenced settle is refused for good: its lease has a new holder
            return;
        }
        if (retrying.isEmpty() && outage) {
            log.debug("store: keeping the end of message {} until Redis answers again", settle.seq());
            retryBackoff = FIRST_RETRY;
            nextRetry = options.clock().instant().plus(retryBackoff);
        } else if (retrying.isEmpty()) {
            log.error("store: could not record the end of message {} in Redis at {} ({}); keeping such records in"
                    + " memory and writing them again every {} s up to {} s until it works (the messages stay pending"
                    + " in Redis until then; further failures are not logged one by one)", settle.seq(),
                    target.redactedUrl(), error.getMessage(), FIRST_RETRY.toSeconds(), MAX_RETRY.toSeconds());
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

    /** Whether Redis refused a fenced settle because its lease has moved on (docs/architecture.md §7.1). */
    static boolean isFenced(Throwable error) {
        return error instanceof JedisDataException && error.getMessage() != null
                && error.getMessage().startsWith(RedisScripts.FENCED);
    }

    /** Writes the kept settles again, in one transaction, when due (or now, with {@code force}). */
    @Override
    protected void retryIfDue(boolean force) {
        if (retrying.isEmpty() || !force && options.clock().instant().isBefore(nextRetry)) {
            return;
        }
        List<Throwable> errors = write(retrying);
        List<Queued<RedisOp>> still = new ArrayList<>();
        for (int i = 0; i < retrying.size(); i++) {
            Queued<RedisOp> queued = retrying.get(i);
            if (errors.get(i) == null) {
                report(queued.op());
                queued.done().complete(null);
            } else if (isFenced(errors.get(i))) {
                fail(queued, errors.get(i));
            } else {
                still.add(queued);
            }
        }
        int written = retrying.size() - still.size();
        retrying.clear();
        retrying.addAll(still);
        if (still.isEmpty()) {
            log.info("store: {} kept record(s) of ended messages written; recording works again", written);
            nextRetry = null;
            releaseFlushes();
            return;
        }
        retryBackoff = retryBackoff.multipliedBy(2).compareTo(MAX_RETRY) > 0 ? MAX_RETRY : retryBackoff.multipliedBy(2);
        nextRetry = options.clock().instant().plus(retryBackoff);
        log.debug("store: {} kept record(s) still cannot be written: {}", still.size(), errors.get(0));
    }

    /** At close: the kept settles that could not be written even now fail; their messages run again after a restart. */
    @Override
    protected void failKept() {
        releaseFlushes(); // whatever could be written is: the kept ones below fail, their leases were not given back
        if (retrying.isEmpty()) {
            return;
        }
        log.error("store: {} record(s) of ended messages could not be written to Redis at {} before the store closed;"
                + " those messages stay pending and run again after the restart", retrying.size(), target.redactedUrl());
        StoreException closing = new StoreException("the store " + target + " closed before the record could be written");
        for (Queued<RedisOp> queued : retrying) {
            fail(queued, closing);
        }
        retrying.clear();
    }

    private void fail(Queued<RedisOp> queued, Throwable error) {
        try {
            events.failed(queued.op(), error);
        } catch (RuntimeException e) {
            log.warn("store: failure listener threw", e);
        }
        queued.done().completeExceptionally(error instanceof StoreException store ? store
                : new StoreException("could not write to the store " + target + ": " + error.getMessage(), error));
    }

    private void report(RedisOp op) {
        try {
            events.committed(op);
        } catch (RuntimeException e) {
            log.warn("store: commit listener threw", e);
        }
    }

    @Override
    protected Instant nextRetry() {
        return retrying.isEmpty() ? null : nextRetry;
    }

    @Override
    protected boolean expire(long cutoff) {
        try {
            Object removed = evalsha(RedisScripts.EXPIRE, List.of(keys.answered()),
                    List.of(Long.toString(cutoff), Integer.toString(EXPIRY_LIMIT)));
            long count = removed instanceof Long n ? n : 0;
            if (count > 0) {
                log.debug("store: {} answered record(s) expired", count);
            }
            return count == EXPIRY_LIMIT;
        } catch (JedisConnectionException | StoreException e) {
            lost(List.of(), e);
            return false;
        } catch (JedisException e) {
            log.warn("store: expiry of answered records failed, will retry: {}", e.toString());
            return false;
        }
    }

    private Object evalsha(RedisScripts.Script script, List<String> keyList, List<String> args) {
        try {
            return connection().evalsha(script.sha(), keyList, args);
        } catch (JedisNoScriptException e) {
            return connection().eval(script.source(), keyList, args);
        }
    }
}
