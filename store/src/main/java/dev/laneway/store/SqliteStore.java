package dev.laneway.store;

import static dev.laneway.store.GroupCommitLoop.await;

import dev.laneway.core.QueueOverride;
import dev.laneway.core.SessionKey;
import dev.laneway.core.store.HistoryEntry;
import dev.laneway.core.store.JournalEntry;
import dev.laneway.core.store.LiveMessage;
import dev.laneway.core.store.MessageJournal;
import dev.laneway.core.store.SessionStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The durable store: {@link SessionStore} and {@link MessageJournal} on one SQLite file,
 * {@code <dataDir>/laneway.db}, in WAL mode. See {@link Migrations} for the schema.
 *
 * <p>Threads, connections and what guards what:
 * <ul>
 *   <li>Writes of every kind go through one {@link StoreWriter}: its thread owns the write connection
 *       and commits whatever is queued as one transaction (group commit). {@link #append} returns the
 *       op's future (complete once committed); {@link #settled}, {@link #appendHistory} and
 *       {@link #clearHistory} do not wait; {@link #setQueueOverride} waits (it is rare). A record of
 *       an ended message that cannot be committed is kept by the writer and retried until it is
 *       (see {@link StoreWriter}); meanwhile {@link #seen} still knows an answered one's key.</li>
 *   <li>Reads from disk ({@link #history}, {@link #pending}) go through one {@link StoreReader}: a
 *       second connection behind its own lock; WAL lets it read while the writer writes.</li>
 *   <li>Answered from memory: {@link #seen} ({@link SeenKeys}, concurrent maps; it reads the disk
 *       only for answered keys beyond the heap's bound, see there),
 *       {@link #queueOverride} ({@code overrides}, a concurrent map written through to disk) and
 *       {@link #lastSequence} (an atomic). {@code overrideLock} makes "update the map, queue the
 *       write" one step, so the map and the disk see overrides of a session in the same order.
 *       {@link #lastFire} ({@code fires}) works the same way, with {@code fireLock}; {@link #recordFire}
 *       waits for the commit, so a recorded fire survives a crash.</li>
 *   <li>{@code historyWrites} ({@link HistoryWrites}, thread-safe) holds, per session, the future of its
 *       latest queued history write; {@link #history} waits for it first, so a session reads its own
 *       writes.</li>
 * </ul>
 */
public final class SqliteStore implements DurableStore {

    /** The database's file name inside the data directory. */
    public static final String FILE_NAME = "laneway.db";

    private static final Logger log = LoggerFactory.getLogger(SqliteStore.class);

    private final Path file;
    private final StoreOptions options;
    private final StoreLock lock;
    private final StoreReader reader;
    private final StoreWriter writer;
    private final SeenKeys seen;
    private final AtomicLong diskLookups = new AtomicLong();
    private final AtomicLong lastSequence;
    // session key -> its /queue override, the whole table (write-through)
    private final Map<String, QueueOverride> overrides;
    private final ReentrantLock overrideLock = new ReentrantLock();
    // job id -> its last fire, the whole table (write-through); fireLock orders the map and the disk
    private final Map<String, Instant> fires;
    private final ReentrantLock fireLock = new ReentrantLock();
    // session key -> future of the latest queued history write of that session (removed once done)
    private final HistoryWrites historyWrites = new HistoryWrites();
    private final AtomicBoolean closed = new AtomicBoolean();

    private SqliteStore(Path file, StoreOptions options, StoreLock lock, Connection writeConnection,
                        StoreReader reader) throws SQLException {
        this.file = file;
        this.options = options;
        this.lock = lock;
        this.reader = reader;
        this.overrides = new ConcurrentHashMap<>(reader.overrides());
        this.fires = new ConcurrentHashMap<>(reader.fires());
        this.seen = new SeenKeys(options.maxAnsweredKeysInMemory(), options.answeredRetention().toMillis());
        reader.loadKeys(seen, answeredSince(), options.maxAnsweredKeysInMemory());
        long last = reader.lastSequence();
        this.lastSequence = new AtomicLong(last);
        this.writer = new StoreWriter(file, options, writeConnection, last, new WriterEvents());
    }

    /** Opens (creating it and the directory when needed) the store in {@code dataDir} with default options. */
    public static SqliteStore open(Path dataDir) {
        return open(dataDir, StoreOptions.defaults());
    }

    /**
     * The schema version of the store in {@code dataDir}, read without creating, migrating or locking
     * anything (for {@code laneway doctor}); a gateway may be running on it meanwhile.
     *
     * @throws StoreException as {@link #open} for a file that is not a Laneway store or is newer than
     *                        this binary
     */
    public static StoreInspection inspect(Path dataDir) {
        Path file = dataDir.resolve(FILE_NAME).toAbsolutePath().normalize();
        if (!Files.exists(file)) {
            return new StoreInspection(file.toString(), null, Migrations.LATEST);
        }
        org.sqlite.SQLiteConfig config = new org.sqlite.SQLiteConfig();
        config.setReadOnly(true);
        config.setBusyTimeout((int) StoreOptions.defaults().busyTimeout().toMillis());
        try (Connection connection = config.createConnection("jdbc:sqlite:" + file)) {
            return new StoreInspection(file.toString(), Migrations.check(connection, file), Migrations.LATEST);
        } catch (SQLException e) {
            throw openFailure(file, e);
        }
    }

    /**
     * Opens the store in {@code dataDir}: creates the directory and {@code laneway.db} when needed,
     * applies pending schema migrations (in one transaction) and loads the in-memory state.
     *
     * @throws StoreException naming the file when it cannot be used: not a readable SQLite database,
     *                        another program's database, a schema newer than this binary, or in use
     *                        by another gateway. The file is never wiped or re-created.
     */
    public static SqliteStore open(Path dataDir, StoreOptions options) {
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(options, "options");
        try {
            Files.createDirectories(dataDir);
        } catch (IOException e) {
            throw new StoreException("could not create the data directory " + dataDir + " for the store: " + e
                    + ". Check gateway.dataDir and its permissions.", e);
        }
        Path file = dataDir.resolve(FILE_NAME).toAbsolutePath();
        StoreLock lock = StoreLock.acquire(file);
        Connection writeConnection = null;
        StoreReader reader = null;
        try {
            writeConnection = Sqlite.open(file, options);
            int from = Migrations.check(writeConnection, file);
            Sqlite.configureWriter(writeConnection, options);
            Migrations.migrate(writeConnection, from);
            reader = new StoreReader(file, Sqlite.openReader(file, options));
            SqliteStore store = new SqliteStore(file, options, lock, writeConnection, reader);
            store.writer.start();
            log.info("store: opened {} (schema version {}{}; {} dedupe key(s), {} override(s), last sequence {})",
                    file, Migrations.LATEST, from == Migrations.LATEST ? "" : ", migrated from " + from,
                    store.seen.size(), store.overrides.size(), store.lastSequence.get());
            return store;
        } catch (SQLException | RuntimeException e) {
            Sqlite.closeQuietly(reader);
            Sqlite.closeQuietly(writeConnection);
            lock.close();
            throw openFailure(file, e);
        }
    }

    private static StoreException openFailure(Path file, Exception e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && Sqlite.unreadable(sql)) {
                return new StoreException("The Laneway store " + file + " is not a readable SQLite database ("
                        + sql.getMessage() + "). Restore it from a backup, or move it aside (for example to "
                        + file.getFileName() + ".broken) to start with an empty store. The file was not modified.", e);
            }
        }
        if (e instanceof StoreException store) {
            return store;
        }
        return new StoreException("could not open the Laneway store " + file + ": " + e.getMessage(), e);
    }

    /** True until {@link #close()} (for readiness checks). */
    @Override
    public boolean isOpen() {
        return !closed.get();
    }

    /** The database file. */
    public Path file() {
        return file;
    }

    @Override
    public String describe() {
        return file.toString();
    }

    // ---- MessageJournal ----

    @Override
    public CompletableFuture<Void> append(JournalEntry entry) {
        Objects.requireNonNull(entry, "entry");
        String key = entry.messageKey();
        seen.pending(entry.seq(), key);
        lastSequence.accumulateAndGet(entry.seq(), Math::max);
        CompletableFuture<Void> done = writer.submit(new WriteOp.Append(entry, entry.acceptedAt().toEpochMilli()));
        if (done.isCompletedExceptionally()) {
            seen.forgetPending(entry.seq(), key); // closed: never queued
        }
        return done;
    }

    @Override
    public void settled(long seq, boolean answered) {
        String answeredKey = seen.settled(seq, answered);
        long at = options.clock().millis();
        // once committed, the writer thread makes the key evictable (WriterEvents.committed)
        CompletableFuture<Void> done = writer.submit(new WriteOp.Settle(seq, answered, at, answeredKey));
        if (done.isCompletedExceptionally()) {
            // the key stays held (not evictable): this closed store takes no more messages anyway
            log.warn("store closed: the end of message {} was not recorded; it stays pending", seq);
        }
    }

    @Override
    public void liveShown(LiveMessage message) {
        Objects.requireNonNull(message, "message");
        writer.submit(new WriteOp.LiveShown(message, options.clock().millis())); // a closed store: nothing to mark later
    }

    @Override
    public void liveGone(long seq, String messageId) {
        writer.submit(new WriteOp.LiveGone(seq, messageId));
    }

    /** Including records queued before this call. */
    @Override
    public List<LiveMessage> liveMessages(Collection<Long> seqs) {
        if (seqs.isEmpty()) {
            return List.of();
        }
        flush();
        return reader.liveMessages(new HashSet<>(seqs));
    }

    /** Every pending entry, in sequence order, including appends queued before this call. */
    @Override
    public List<JournalEntry> pending() {
        flush();
        return reader.pending();
    }

    /**
     * From memory, unless more answered records exist than the heap keeps
     * ({@link StoreOptions#maxAnsweredKeysInMemory}) and one left out could still be within the
     * retention: then a key missing from memory is looked up in the database. A failed lookup is
     * logged and counts as not seen, so the message is answered rather than lost.
     */
    @Override
    public boolean seen(String messageKey) {
        if (messageKey == null) {
            return false;
        }
        if (seen.contains(messageKey)) {
            return true;
        }
        long now = options.clock().millis();
        if (!seen.mayBeOnDiskOnly(now)) {
            return false;
        }
        diskLookups.incrementAndGet();
        try {
            return reader.answeredSince(messageKey, now - options.answeredRetention().toMillis());
        } catch (StoreException e) {
            log.warn("store: could not look up whether message {} was answered before ({}); handling it as new",
                    messageKey, e.getMessage());
            return false;
        }
    }

    @Override
    public long lastSequence() {
        return lastSequence.get();
    }

    // ---- SessionStore ----

    @Override
    public Optional<QueueOverride> queueOverride(SessionKey session) {
        return Optional.ofNullable(overrides.get(session.value()));
    }

    /** Replaces the override in memory at once and on disk before returning. */
    @Override
    public void setQueueOverride(SessionKey session, QueueOverride override) {
        String key = session.value();
        CompletableFuture<Void> done;
        overrideLock.lock();
        try {
            ensureOpen();
            if (override == null || override.isEmpty()) {
                overrides.remove(key);
            } else {
                overrides.put(key, override);
            }
            done = writer.submit(new WriteOp.SetOverride(key, override, options.clock().millis()));
        } finally {
            overrideLock.unlock();
        }
        await(done);
    }

    @Override
    public Optional<Instant> lastFire(String jobId) {
        return Optional.ofNullable(fires.get(jobId));
    }

    /** Records the fire in memory at once and on disk before returning (a failed write throws {@link StoreException}). */
    @Override
    public void recordFire(String jobId, Instant at) {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(at, "at");
        CompletableFuture<Void> done;
        fireLock.lock();
        try {
            ensureOpen();
            fires.put(jobId, at);
            done = writer.submit(new WriteOp.RecordFire(jobId, at, options.clock().millis()));
        } finally {
            fireLock.unlock();
        }
        await(done);
    }

    @Override
    public List<HistoryEntry> history(SessionKey session, int limit) {
        if (limit <= 0) {
            return List.of();
        }
        historyWrites.awaitLatest(session.value());
        return reader.history(session.value(), limit);
    }

    @Override
    public void appendHistory(SessionKey session, List<HistoryEntry> entries) {
        if (entries.isEmpty()) {
            return;
        }
        submitHistory(session.value(), new WriteOp.AppendHistory(session.value(), List.copyOf(entries),
                options.clock().millis()));
    }

    @Override
    public void clearHistory(SessionKey session) {
        submitHistory(session.value(), new WriteOp.ClearHistory(session.value()));
    }

    private void submitHistory(String session, WriteOp op) {
        ensureOpen();
        historyWrites.submit(session, () -> writer.submit(op));
    }

    // ---- lifecycle and tests ----

    /** Waits until every write queued so far is committed. A no-op once closed. */
    @Override
    public void flush() {
        if (!closed.get()) {
            try {
                writer.submit(new WriteOp.Flush()).join();
            } catch (CompletionException e) {
                // closed meanwhile: close() commits everything queued anyway
            }
        }
    }

    /** Transactions committed since open: many appends per commit means group commit works. */
    @Override
    public long commitCount() {
        return writer.commits();
    }

    /** Tests only: the writer waits on {@code release} before it takes the next write. */
    void holdWriter(CountDownLatch release) {
        writer.hold(release);
    }

    /** Tests only: how many message keys {@link #seen} knows in memory. */
    int seenKeyCount() {
        return seen.size();
    }

    /** Tests only: how often {@link #seen} had to read the database. */
    long diskLookups() {
        return diskLookups.get();
    }

    private long answeredSince() {
        return options.clock().instant().minus(options.answeredRetention()).toEpochMilli();
    }

    /**
     * Stops taking writes, commits everything queued, checkpoints the WAL into the database, closes
     * both connections and releases the lock file. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            writer.close();
        } finally {
            reader.close();
            lock.close();
        }
        log.info("store: closed {}", file);
    }

    private void ensureOpen() {
        if (closed.get()) {
            throw new StoreException("the store " + file + " is closed");
        }
    }

    /** Keeps memory in step with what the writer could (not) commit. Called on the writer thread. */
    private final class WriterEvents implements StoreWriter.Events {

        // seqs of answered records the writer kept after a failed write and is retrying (writer thread only)
        private final Set<Long> kept = new HashSet<>();

        @Override
        public void committed(WriteOp op) {
            if (op instanceof WriteOp.Settle settle && settle.answeredKey() != null) {
                if (kept.remove(settle.seq())) {
                    seen.answerRecordedLate(settle.seq(), settle.answeredKey(), settle.atMillis());
                } else {
                    seen.answerCommitted(settle.seq(), settle.answeredKey(), settle.atMillis());
                }
            }
        }

        @Override
        public void kept(WriteOp.Settle settle, Throwable error) {
            // known until written, but evictable like any answered key: failures cannot fill the heap
            if (settle.answeredKey() != null && kept.add(settle.seq())) {
                seen.answerNotRecorded(settle.seq(), settle.answeredKey(), settle.atMillis());
            }
        }

        @Override
        public void failed(WriteOp op, Throwable error) {
            switch (op) {
                case WriteOp.Append append -> seen.forgetPending(append.entry().seq(), append.entry().messageKey());
                case WriteOp.Settle settle -> {
                    // only at close: until then the writer kept the record and retried it (it logged the outage)
                    log.debug("store: the end of message {} could not be recorded ({}); it stays pending and runs"
                            + " again after a restart", settle.seq(), error.toString());
                    if (settle.answeredKey() != null && !kept.remove(settle.seq())) {
                        seen.answerNotRecorded(settle.seq(), settle.answeredKey(), settle.atMillis());
                    }
                }
                case WriteOp.AppendHistory history -> log.error("store: {} history entr(ies) of session {} were not"
                        + " saved: {}", history.entries().size(), history.session(), error.toString());
                case WriteOp.ClearHistory clear -> log.error("store: the history of session {} was not cleared: {}",
                        clear.session(), error.toString());
                default -> { } // the caller waits for these and sees the error
            }
        }

        @Override
        public void expired(List<WriteStatements.Expired> rows) {
            rows.forEach(row -> seen.expired(row.seq(), row.key()));
        }
    }
}
