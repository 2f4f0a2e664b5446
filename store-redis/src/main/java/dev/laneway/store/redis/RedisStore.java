package dev.laneway.store.redis;

import static dev.laneway.store.GroupCommitLoop.await;

import dev.laneway.core.QueueOverride;
import dev.laneway.core.SessionKey;
import dev.laneway.core.fleet.Lease;
import dev.laneway.core.store.HistoryEntry;
import dev.laneway.core.store.JournalEntry;
import dev.laneway.core.store.LiveMessage;
import dev.laneway.store.DurableStore;
import dev.laneway.store.HistoryWrites;
import dev.laneway.store.StoreException;
import dev.laneway.store.StoreInspection;
import dev.laneway.store.StoreOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * The fleet's store: {@link dev.laneway.core.store.SessionStore} and
 * {@link dev.laneway.core.store.MessageJournal} on Redis, with the same contract as the SQLite store
 * (the store contract suite runs against both). Key layout: {@link RedisKeys}; open checks (the fleet
 * claim, the key layout's version): {@link RedisFleet}.
 *
 * <p>Threads, connections and what guards what:
 * <ul>
 *   <li>Writes go through one {@link RedisWriter}: its thread owns one connection and sends whatever is
 *       queued as one {@code MULTI ... EXEC} (group commit). {@link #append} returns the op's future
 *       (complete once Redis acknowledged it); {@link #settled}, {@link #appendHistory} and
 *       {@link #clearHistory} do not wait; {@link #setQueueOverride} and {@link #recordFire} wait.</li>
 *   <li>Reads ({@link #seen}, {@link #pending}, {@link #history}, {@link #queueOverride},
 *       {@link #lastFire}) ask Redis on a connection borrowed from {@code pool} (a {@link JedisPool},
 *       thread-safe), so they see what every instance of the fleet wrote. No read waits for the writer,
 *       except {@link #history} for its own session's queued writes and {@link #pending} (a flush).</li>
 *   <li>What this instance queued but Redis has not acknowledged yet is answered from memory, so a
 *       message is seen from the moment it is appended: {@code queuedKeys} (appends not yet written)
 *       and {@code endingKeys} (settles not yet written, or kept during an outage: an answered one
 *       stays seen, an unanswered one is forgotten at once). {@code keyBySeq} remembers the key of
 *       each pending message this instance appended or picked up and may end, for {@code endingKeys}
 *       (not of one that runs elsewhere, nor of one read for a status: D234). All three are
 *       concurrent maps; removals are conditional on the sequence number, so an older op never
 *       removes a newer one's entry. The writer thread updates them ({@code WriterEvents}) before
 *       the op's future completes.</li>
 *   <li>{@code lastSequence}: an atomic, read from Redis at open and raised on append.</li>
 * </ul>
 */
public final class RedisStore implements DurableStore {

    /** How long to wait for a TCP connection to Redis. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    /** How long to wait for Redis to answer a command. */
    static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(5);
    /** Read connections kept open at most. */
    static final int MAX_READ_CONNECTIONS = 16;
    /** Pending entries read per round trip by {@link #pending}. */
    static final int PENDING_CHUNK = 1_000;

    private static final Logger log = LoggerFactory.getLogger(RedisStore.class);

    /** A settle this instance queued and Redis has not acknowledged yet. */
    private record Ending(long seq, boolean answered) { }

    private final RedisTarget target;
    private final RedisKeys keys;
    private final StoreOptions options;
    private final JedisPool pool;
    private final RedisWriter writer;
    private final AtomicLong lastSequence;
    // message key -> seq of this instance's append that Redis has not acknowledged yet
    private final Map<String, Long> queuedKeys = new ConcurrentHashMap<>();
    // message key -> this instance's settle that Redis has not acknowledged yet (or kept after a failure)
    private final Map<String, Ending> endingKeys = new ConcurrentHashMap<>();
    // seqs whose settle this instance queued and Redis has not acknowledged (or kept during an outage):
    // pendingOf leaves them out, so a fleet's pick-up never runs a message this instance just ended
    private final java.util.Set<Long> endingSeqs = ConcurrentHashMap.newKeySet();
    // seq -> message key, for pending messages this instance appended or read back
    private final Map<Long, String> keyBySeq = new ConcurrentHashMap<>();
    // per session, the future of its latest queued history write (removed once done): history waits for it
    private final HistoryWrites historyWrites = new HistoryWrites();
    // "<lease key>#<token>" -> fenced settles under that lease not written yet (queued, kept for a retry)
    private final Map<String, Integer> unwrittenFences = new ConcurrentHashMap<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile boolean sharedSequence; // set once, when the instance joins its fleet
    private volatile boolean heartbeatFailing; // written by the fleet's beat
    private final HostAndPort address;
    private final JedisClientConfig clientConfig;
    private final AtomicLong reads = new AtomicLong();

    private RedisStore(RedisTarget target, RedisKeys keys, StoreOptions options, JedisPool pool, Jedis writeConnection,
                       RedisWriter.Connector connector, long lastSequence, HostAndPort address, JedisClientConfig config) {
        this.address = address;
        this.clientConfig = config;
        this.target = target;
        this.keys = keys;
        this.options = options;
        this.pool = pool;
        this.lastSequence = new AtomicLong(lastSequence);
        this.writer = new RedisWriter(target, keys, options, writeConnection, connector, new WriterEvents());
    }

    /**
     * Connects to Redis, claims the database for the fleet (or checks the claim) and starts the writer.
     *
     * @throws StoreException naming the URL (credentials masked): Redis unreachable or refusing the
     *                        credentials, a database of another fleet, a newer key layout
     */
    public static RedisStore open(RedisTarget target, StoreOptions options) {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(options, "options");
        RedisKeys keys = new RedisKeys(target.fleet());
        JedisClientConfig config = clientConfig(target);
        HostAndPort address = new HostAndPort(target.host(), target.port());
        Jedis first = null;
        JedisPool pool = null;
        try {
            first = connect(address, config, target);
            boolean created = RedisFleet.claim(first, keys, target, options.clock().millis());
            RedisScripts.load(first);
            String seq = first.get(keys.seq());
            long last = seq == null ? 0 : Long.parseLong(seq);
            Persistence persistence = Persistence.of(first);
            pool = new JedisPool(poolConfig(), address, config);
            RedisWriter.Connector reconnect = () -> reconnect(address, config, target, keys, options);
            RedisStore store = new RedisStore(target, keys, options, pool, first, reconnect, last, address, config);
            store.writer.start();
            log.info("store: opened Redis at {} for fleet {}{} (last sequence {}; persistence: {})", target.redactedUrl(),
                    target.fleet(), created ? ", a new fleet" : "", last, persistence.describe());
            if (!persistence.persists()) {
                log.warn("store: Redis at {} persists nothing (appendonly no, no save points): a restart of Redis"
                        + " loses every queued message and the answered ledger. Turn on appendonly (docs/behaviour.md"
                        + " §9.7)", target.redactedUrl());
            }
            return store;
        } catch (JedisException | NumberFormatException e) {
            closeQuietly(first);
            closeQuietly(pool);
            String why = String.valueOf(e.getMessage()).replaceAll("\\.+$", "");
            throw new StoreException("could not open the Laneway store on Redis at " + target.redactedUrl()
                    + " (gateway.store.url): " + why + ". Check that Redis runs there and that the URL,"
                    + " user and password are right.", e);
        } catch (RuntimeException e) {
            closeQuietly(first);
            closeQuietly(pool);
            throw e;
        }
    }

    /**
     * The fleet's key layout version on Redis, read without writing anything (for {@code laneway
     * doctor}); null version when the database has no fleet yet.
     *
     * @throws StoreException as {@link #open}: Redis unreachable or refusing the credentials, a
     *                        database of another fleet, a newer key layout
     */
    public static StoreInspection inspect(RedisTarget target) {
        RedisKeys keys = new RedisKeys(target.fleet());
        try (Jedis jedis = connect(new HostAndPort(target.host(), target.port()), clientConfig(target), target)) {
            return new StoreInspection(target.redactedUrl() + " (fleet " + target.fleet() + ")",
                    RedisFleet.inspect(jedis, keys, target), RedisKeys.SCHEMA);
        } catch (JedisException e) {
            String why = String.valueOf(e.getMessage()).replaceAll("\\.+$", "");
            throw new StoreException("could not reach the Laneway store on Redis at " + target.redactedUrl()
                    + " (gateway.store.url): " + why + ". Check that Redis runs there and that the URL,"
                    + " user and password are right.", e);
        }
    }

    private static Jedis connect(HostAndPort address, JedisClientConfig config, RedisTarget target) {
        Jedis jedis = new Jedis(address, config);
        try {
            jedis.ping();
            return jedis;
        } catch (RuntimeException e) {
            closeQuietly(jedis);
            throw e;
        }
    }

    /** The writer's connection after a loss: checks the fleet again (a Redis restarted empty is said loudly). */
    private static Jedis reconnect(HostAndPort address, JedisClientConfig config, RedisTarget target, RedisKeys keys,
                                   StoreOptions options) {
        Jedis jedis = connect(address, config, target);
        try {
            if (RedisFleet.claim(jedis, keys, target, options.clock().millis())) {
                log.error("store: Redis at {} came back without this fleet's data (no {} key): the messages it held"
                        + " are lost. Turn on its persistence (appendonly yes, docs/behaviour.md §9.7)",
                        target.redactedUrl(), RedisKeys.FLEET_CLAIM);
            }
            RedisScripts.load(jedis);
            return jedis;
        } catch (RuntimeException e) {
            closeQuietly(jedis);
            throw e;
        }
    }

    static JedisClientConfig clientConfig(RedisTarget target) {
        return DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis((int) CONNECT_TIMEOUT.toMillis())
                .socketTimeoutMillis((int) SOCKET_TIMEOUT.toMillis())
                .user(target.user())
                .password(target.password())
                .database(target.database())
                .ssl(target.tls())
                .clientName("laneway-" + target.fleet())
                .build();
    }

    private static GenericObjectPoolConfig<Jedis> poolConfig() {
        GenericObjectPoolConfig<Jedis> config = new GenericObjectPoolConfig<>();
        config.setMaxTotal(MAX_READ_CONNECTIONS);
        config.setMaxIdle(MAX_READ_CONNECTIONS);
        config.setMinIdle(0);
        config.setMaxWait(CONNECT_TIMEOUT.plus(SOCKET_TIMEOUT));
        config.setTestOnBorrow(false);
        config.setJmxEnabled(false);
        return config;
    }

    /** Which Redis and fleet. */
    public RedisTarget target() {
        return target;
    }

    @Override
    public boolean isOpen() {
        return !closed.get();
    }

    /** False while the writer is in an outage or the fleet's last heartbeat could not reach Redis. */
    @Override
    public boolean reachable() {
        return !writer.inOutage() && !heartbeatFailing;
    }

    /** The fleet's beat says whether it reached Redis (docs/behaviour.md §9.7). */
    void heartbeatReached(boolean reached) {
        heartbeatFailing = !reached;
    }

    @Override
    public String describe() {
        return target.toString();
    }

    // ---- MessageJournal ----

    @Override
    public CompletableFuture<Void> append(JournalEntry entry) {
        Objects.requireNonNull(entry, "entry");
        String key = entry.messageKey();
        long seq = entry.seq();
        if (key != null) {
            queuedKeys.put(key, seq);
            keyBySeq.put(seq, key);
        }
        lastSequence.accumulateAndGet(seq, Math::max);
        CompletableFuture<Void> done = writer.submit(new RedisOp.Append(seq, key, RedisCodec.entry(entry), entry.session()));
        if (done.isCompletedExceptionally()) {
            forgetAppend(seq, key); // closed: never queued
        }
        return done;
    }

    @Override
    public void settled(long seq, boolean answered) {
        settled(seq, answered, null, 0);
    }

    /**
     * Fenced: written only while {@code fence} is still its session's lease (docs/architecture.md
     * §7.1); refused otherwise, the message staying pending for the lease's new holder. A lease of
     * token 0 (one instance) is not fenced. The future completes when Redis took the record, or
     * exceptionally when it was refused by the fence or the store closed first; a record kept for a
     * retry keeps it open (and its lease is not given back at leave, see {@link #unwrittenFence}).
     */
    @Override
    public CompletableFuture<Void> settled(long seq, boolean answered, Lease fence) {
        if (fence == null || !fence.fenced()) {
            return settled(seq, answered, null, 0);
        }
        return settled(seq, answered, keys.lease(fence.session().value()), fence.token());
    }

    /** Whether a fenced settle under this lease is queued or kept for a retry, not yet written (nor refused). */
    boolean unwrittenFence(Lease lease) {
        return unwrittenFences.containsKey(keys.lease(lease.session().value()) + "#" + lease.token());
    }

    private CompletableFuture<Void> settled(long seq, boolean answered, String leaseKey, long token) {
        endingSeqs.add(seq);
        String key = keyBySeq.remove(seq);
        if (key != null) {
            endingKeys.put(key, new Ending(seq, answered));
        }
        String fence = leaseKey == null ? null : leaseKey + "#" + token;
        if (fence != null) {
            unwrittenFences.merge(fence, 1, Integer::sum);
        }
        CompletableFuture<Void> done = writer.submit(
                new RedisOp.Settle(seq, answered, options.clock().millis(), key, leaseKey, token));
        if (fence != null) {
            done.whenComplete((ignored, error) -> unwrittenFences.computeIfPresent(fence, (k, n) -> n == 1 ? null : n - 1));
        }
        if (done.isCompletedExceptionally()) {
            endingSeqs.remove(seq);
            log.warn("store closed: the end of message {} was not recorded; it stays pending", seq);
        }
        return done;
    }

    @Override
    public void liveShown(LiveMessage message) {
        Objects.requireNonNull(message, "message");
        writer.submit(new RedisOp.LiveShown(message.seq(), message.messageId(),
                RedisCodec.live(message, options.clock().millis()))); // a closed store: nothing to mark later
    }

    @Override
    public void liveGone(long seq, String messageId) {
        writer.submit(new RedisOp.LiveGone(seq, messageId));
    }

    /** One round trip for all of them (a pipeline of reads), after this instance's queued writes. */
    @Override
    public List<LiveMessage> liveMessages(Collection<Long> seqs) {
        if (seqs.isEmpty()) {
            return List.of();
        }
        flush();
        List<Long> sorted = new TreeSet<>(seqs).stream().toList();
        return read(jedis -> {
            List<Response<Map<String, String>>> responses = new ArrayList<>(sorted.size());
            try (Pipeline pipeline = jedis.pipelined()) {
                sorted.forEach(seq -> responses.add(pipeline.hgetAll(keys.live(seq))));
                pipeline.sync();
            }
            List<LiveMessage> found = new ArrayList<>();
            for (int i = 0; i < sorted.size(); i++) {
                String where = keys.live(sorted.get(i));
                responses.get(i).get().values().stream()
                        .sorted(Comparator.comparingLong((String json) -> RedisCodec.liveAt(json, where))
                                .thenComparing(json -> RedisCodec.live(json, where).messageId()))
                        .forEach(json -> found.add(RedisCodec.live(json, where)));
            }
            return found;
        });
    }

    /** Every pending entry of the fleet, in sequence order, including appends queued before this call. */
    @Override
    public List<JournalEntry> pending() {
        flush();
        return read(jedis -> {
            List<JournalEntry> entries = new ArrayList<>();
            for (long start = 0; ; start += PENDING_CHUNK) {
                List<String> seqs = jedis.zrange(keys.pending(), start, start + PENDING_CHUNK - 1);
                if (seqs.isEmpty()) {
                    break;
                }
                List<String> values = jedis.hmget(keys.journal(), seqs.toArray(String[]::new));
                for (int i = 0; i < seqs.size(); i++) {
                    if (values.get(i) != null) { // settled meanwhile
                        JournalEntry entry = RedisCodec.entry(values.get(i), keys.journal() + " field " + seqs.get(i));
                        if (entry.messageKey() != null) {
                            keyBySeq.putIfAbsent(entry.seq(), entry.messageKey());
                        }
                        entries.add(entry);
                    }
                }
                if (seqs.size() < PENDING_CHUNK) {
                    break;
                }
            }
            return entries;
        });
    }

    /** The pending entries of one session, from its index (docs/architecture.md §7.1). */
    @Override
    public List<JournalEntry> pendingOf(SessionKey session) {
        return pendingOf(session, seq -> false);
    }

    /**
     * The session's pending entries from its index, reading only those {@code skip} does not name
     * (and none whose end this instance queued): one round trip for the index, one more only when
     * an entry is left to read (docs/architecture.md §7.1).
     */
    @Override
    public List<JournalEntry> pendingOf(SessionKey session, java.util.function.LongPredicate skip) {
        return pendingOf(session, skip, true);
    }

    /** Read-only: nothing of these entries is remembered here, since they end on another instance (D234). */
    @Override
    public List<JournalEntry> peekPendingOf(SessionKey session) {
        return pendingOf(session, seq -> false, false);
    }

    /** A message appended here runs on another instance: its key is not kept for an end recorded here (D234). */
    @Override
    public void runsElsewhere(long seq) {
        keyBySeq.remove(seq);
    }

    /** Keys of messages this instance may end (for tests of D234). */
    int keysKept() {
        return keyBySeq.size();
    }

    private List<JournalEntry> pendingOf(SessionKey session, java.util.function.LongPredicate skip, boolean remember) {
        String index = keys.sessionPending(session.value());
        return read(jedis -> {
            List<String> seqs = new ArrayList<>();
            for (String seq : jedis.zrange(index, 0, -1)) {
                long value = Long.parseLong(seq);
                if (!skip.test(value) && !endingSeqs.contains(value)) {
                    seqs.add(seq);
                }
            }
            List<JournalEntry> entries = new ArrayList<>(seqs.size());
            if (seqs.isEmpty()) {
                return entries;
            }
            List<String> values = jedis.hmget(keys.journal(), seqs.toArray(String[]::new));
            for (int i = 0; i < seqs.size(); i++) {
                // asked again after the read: an end queued meanwhile leaves the entry out too
                if (values.get(i) != null && !endingSeqs.contains(Long.parseLong(seqs.get(i)))) {
                    JournalEntry entry = RedisCodec.entry(values.get(i), keys.journal() + " field " + seqs.get(i));
                    if (remember && entry.messageKey() != null) {
                        keyBySeq.putIfAbsent(entry.seq(), entry.messageKey());
                    }
                    entries.add(entry);
                }
            }
            return entries;
        });
    }

    /** Fleet mode: sequence numbers come from the fleet's counter ({@code INCR seq}), one round trip each. */
    @Override
    public boolean sharesSequence() {
        return sharedSequence;
    }

    @Override
    public long nextSequence() {
        long next = read(jedis -> jedis.incr(keys.seq()));
        lastSequence.accumulateAndGet(next, Math::max);
        return next;
    }

    /**
     * Puts every pending entry into its session's index (docs/architecture.md §7.1): a fleet finds
     * pending messages only through the indexes, and entries appended by a Laneway older than them
     * are in {@code pending} alone, so without this they would never run after an upgrade. Reads
     * {@code pending} in chunks; each chunk is one script. Returns how many entries were newly indexed.
     */
    long indexPending() {
        flush();
        return read(jedis -> {
            long added = 0;
            for (long start = 0; ; start += PENDING_CHUNK) {
                List<String> seqs = jedis.zrange(keys.pending(), start, start + PENDING_CHUNK - 1);
                if (seqs.isEmpty()) {
                    break;
                }
                List<String> args = new ArrayList<>(seqs.size() + 1);
                args.add(keys.prefix());
                args.addAll(seqs);
                added += (Long) evalScript(jedis, FleetScripts.INDEX_PENDING, List.of(keys.journal()), args);
                if (seqs.size() < PENDING_CHUNK) {
                    break;
                }
            }
            return added;
        });
    }

    /** Called when this store's instance joins its fleet: sequence numbers are shared from then on. */
    void shareSequence() {
        sharedSequence = true;
    }

    /**
     * From memory for this instance's writes Redis has not acknowledged yet, else from Redis: a
     * pending message of any instance, or one answered within the retention. A failed read throws
     * {@link StoreException}: the gateway then refuses the message with the failure notice rather
     * than risk answering it twice. A closed store answers from memory only.
     */
    @Override
    public boolean seen(String messageKey) {
        if (messageKey == null) {
            return false;
        }
        if (queuedKeys.containsKey(messageKey)) {
            return true;
        }
        Ending ending = endingKeys.get(messageKey);
        if (ending != null) {
            return ending.answered();
        }
        if (closed.get()) {
            return false; // a closed store takes no message anyway: its append fails
        }
        long cutoff = options.clock().millis() - options.answeredRetention().toMillis();
        Object known = read(jedis -> evalsha(jedis, RedisScripts.SEEN, List.of(keys.pendingKeys(), keys.answered()),
                List.of(messageKey, Long.toString(cutoff))));
        return Long.valueOf(1).equals(known);
    }

    @Override
    public long lastSequence() {
        return lastSequence.get();
    }

    // ---- SessionStore ----

    @Override
    public Optional<QueueOverride> queueOverride(SessionKey session) {
        String json = read(jedis -> jedis.hget(keys.overrides(), session.value()));
        return json == null ? Optional.empty()
                : Optional.of(RedisCodec.override(json, keys.overrides() + " field " + session.value()));
    }

    /** Replaces the override; returns once Redis acknowledged it. */
    @Override
    public void setQueueOverride(SessionKey session, QueueOverride override) {
        ensureOpen();
        await(writer.submit(new RedisOp.SetOverride(session.value(), override)));
    }

    @Override
    public Optional<Instant> lastFire(String jobId) {
        String at = read(jedis -> jedis.hget(keys.fires(), jobId));
        return at == null ? Optional.empty() : Optional.of(Instant.parse(at));
    }

    /** Records the fire; returns once Redis acknowledged it (a failed write throws {@link StoreException}). */
    @Override
    public void recordFire(String jobId, Instant at) {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(at, "at");
        ensureOpen();
        await(writer.submit(new RedisOp.RecordFire(jobId, at)));
    }

    @Override
    public List<HistoryEntry> history(SessionKey session, int limit) {
        if (limit <= 0) {
            return List.of();
        }
        historyWrites.awaitLatest(session.value());
        String key = keys.history(session.value());
        List<String> values = read(jedis -> jedis.lrange(key, -limit, -1));
        List<HistoryEntry> entries = new ArrayList<>(values.size());
        for (String value : values) {
            entries.add(RedisCodec.history(value, key));
        }
        return entries;
    }

    @Override
    public void appendHistory(SessionKey session, List<HistoryEntry> entries) {
        if (entries.isEmpty()) {
            return;
        }
        submitHistory(session.value(), new RedisOp.AppendHistory(session.value(), List.copyOf(entries)));
    }

    @Override
    public void clearHistory(SessionKey session) {
        submitHistory(session.value(), new RedisOp.ClearHistory(session.value()));
    }

    private void submitHistory(String session, RedisOp op) {
        ensureOpen();
        historyWrites.submit(session, () -> writer.submit(op));
    }

    // ---- lifecycle and tests ----

    @Override
    public void flush() {
        if (!closed.get()) {
            try {
                writer.submit(new RedisOp.Flush(false)).join();
            } catch (CompletionException e) {
                // closed meanwhile: close() writes everything queued anyway
            }
        }
    }

    /**
     * {@link #flush()}, waiting at most {@code within}: false when the writer did not get there in
     * time (Redis unreachable, its writes kept for a retry). For a member leaving its fleet, which
     * must not wait forever at shutdown.
     */
    boolean flush(Duration within) {
        if (closed.get()) {
            return true;
        }
        try {
            writer.submit(new RedisOp.Flush(true)).get(within.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (ExecutionException e) {
            return true; // closed meanwhile: close() writes everything queued anyway
        } catch (TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public long commitCount() {
        return writer.commits();
    }

    /**
     * Round trips to Redis since open, for measurements: one per read (two per chunk of
     * {@link #pending}) and one per write transaction (a group commit, a retry).
     */
    public long roundTrips() {
        return reads.get() + writer.commits();
    }

    /**
     * For measurements (bench's round-trip count, docs/architecture.md §10): each Lua script this
     * store and its fleet coordination call, by the SHA-1 {@code EVALSHA} names it by.
     */
    public static Map<String, String> scriptNamesBySha() {
        Map<String, String> names = new java.util.LinkedHashMap<>();
        for (RedisScripts.Script script : RedisScripts.ALL) {
            names.put(script.sha(), script.name());
        }
        for (RedisScripts.Script script : FleetScripts.ALL) {
            names.put(script.sha(), script.name());
        }
        return java.util.Collections.unmodifiableMap(names);
    }

    /** Tests only: the writer waits on {@code release} before it takes the next write. */
    void holdWriter(CountDownLatch release) {
        writer.hold(release);
    }

    /** Writes everything queued, closes the writer's connection and the read pool. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            writer.close();
        } finally {
            closeQuietly(pool);
        }
        log.info("store: closed Redis at {} (fleet {})", target.redactedUrl(), target.fleet());
    }

    private void ensureOpen() {
        if (closed.get()) {
            throw new StoreException("the store " + target + " is closed");
        }
    }

    /** The fleet's key layout (for the fleet's coordination, {@link RedisFleetMember}). */
    RedisKeys keys() {
        return keys;
    }

    /**
     * Runs a query on a pooled connection, for the fleet's coordination: one round trip, counted
     * with the reads; a failure throws {@link StoreException} naming the URL.
     */
    <T> T query(Function<Jedis, T> query) {
        return read(query);
    }

    /**
     * A connection of its own (not from the pool), for a blocking read ({@code XREADGROUP BLOCK}) that
     * would hold a pooled one for seconds; the caller closes it. Its socket timeout is the store's.
     */
    Jedis dedicatedConnection() {
        return connect(address, clientConfig, target);
    }

    /** Runs a script by SHA, loading it when the server does not know it yet. */
    static Object evalScript(Jedis jedis, RedisScripts.Script script, List<String> keyList, List<String> args) {
        return evalsha(jedis, script, keyList, args);
    }

    private <T> T read(Function<Jedis, T> query) {
        ensureOpen();
        reads.incrementAndGet();
        try (Jedis jedis = pool.getResource()) {
            return query.apply(jedis);
        } catch (JedisException | IllegalStateException e) {
            throw new StoreException("could not read from the store on Redis at " + target.redactedUrl() + ": "
                    + e.getMessage(), e);
        }
    }

    private static Object evalsha(Jedis jedis, RedisScripts.Script script, List<String> keyList, List<String> args) {
        try {
            return jedis.evalsha(script.sha(), keyList, args);
        } catch (JedisNoScriptException e) {
            return jedis.eval(script.source(), keyList, args);
        }
    }

    private void forgetAppend(long seq, String key) {
        if (key != null) {
            queuedKeys.remove(key, seq);
            keyBySeq.remove(seq, key);
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable != null) {
            try {
                closeable.close();
            } catch (Exception e) {
                log.debug("closing {} failed: {}", closeable.getClass().getSimpleName(), e.toString());
            }
        }
    }

    /** Keeps memory in step with what Redis acknowledged. Called on the writer thread. */
    private final class WriterEvents implements RedisWriter.Events {

        @Override
        public void committed(RedisOp op) {
            switch (op) {
                case RedisOp.Append append -> {
                    if (append.key() != null) {
                        queuedKeys.remove(append.key(), append.seq());
                    }
                }
                case RedisOp.Settle settle -> forgetEnding(settle);
                default -> { }
            }
        }

        @Override
        public void failed(RedisOp op, Throwable error) {
            switch (op) {
                case RedisOp.Append append -> forgetAppend(append.seq(), append.key());
                case RedisOp.Settle settle when RedisWriter.isFenced(error) -> {
                    log.warn("store: the end of message {} was not recorded: this instance no longer holds the lease"
                            + " of its session (fencing token {}); the message stays pending for the lease's holder",
                            settle.seq(), settle.token());
                    if (settle.key() != null) {
                        keyBySeq.putIfAbsent(settle.seq(), settle.key());
                    }
                    forgetEnding(settle);
                }
                case RedisOp.Settle settle -> {
                    log.debug("store: the end of message {} could not be recorded ({}); it stays pending and runs"
                            + " again after a restart", settle.seq(), error.toString());
                    forgetEnding(settle);
                }
                case RedisOp.AppendHistory history -> log.error("store: {} history entr(ies) of session {} were not"
                        + " saved: {}", history.entries().size(), history.session(), error.toString());
                case RedisOp.ClearHistory clear -> log.error("store: the history of session {} was not cleared: {}",
                        clear.session(), error.toString());
                default -> { } // the caller waits for these and sees the error
            }
        }

        private void forgetEnding(RedisOp.Settle settle) {
            endingSeqs.remove(settle.seq());
            if (settle.key() != null) {
                endingKeys.remove(settle.key(), new Ending(settle.seq(), settle.answered()));
            }
        }
    }
}
