package dev.laneway.bench;

import dev.laneway.store.SqliteStore;
import dev.laneway.store.StoreOptions;
import dev.laneway.store.redis.RedisStore;
import dev.laneway.store.redis.RedisTarget;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Accepted messages per second through the real {@code Gateway.accept}, durable (the SQLite store
 * as session store and journal, as the app wires it: WAL, {@code synchronous=FULL}, group commit)
 * against in memory ({@code MessageJournal.NONE}, {@code InMemorySessionStore}), in the same run.
 *
 * <p>With a journal, {@code accept} returns only once the message's group commit is durable, so one
 * producer waits for one fsync per message and the rate depends on how many producers share a
 * commit: hence 1, 8 and 64 producer threads (JMH threads, each calling {@code accept} in a loop).
 * Every message carries a unique platform message id (dedupe and the journal's answered records
 * see each one) and is created by the producer, as a channel adapter would. Each producer owns an
 * equal share of 10,000 sessions and rotates over them with a {@link SessionWindow}, so every
 * message finds its session idle and starts a run, which the no-op agent completes at once; ending
 * it writes the "answered" record (not waited for). The window keeps at most one message per
 * session in flight: this is the sustained rate, accepted and run, not a burst the engine would
 * answer later (with admission off, producers that outran the runs would fill the session queues
 * until their cap refuses messages). Every trial starts from an empty data directory in
 * {@code java.io.tmpdir}, deleted afterwards.
 *
 * <p>{@code redis}: the Redis store against a {@code redis-server} the trial starts itself
 * ({@link BenchRedis}: {@code appendonly yes}, {@code appendfsync always}, loopback), so the three
 * stores are measured in the same run. At the end of a Redis trial one line on stdout gives the
 * round trips to Redis per accepted message ({@link RedisStore#roundTrips}).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class DurableAcceptBenchmark {

    static final int SESSIONS = 10_000;

    @State(Scope.Benchmark)
    public static class Stores {
        @Param({"memory", "sqlite", "redis"})
        public String store;

        private Path dir;
        private SqliteStore sqlite;
        private BenchRedis redisServer;
        private RedisStore redis;
        private BenchGateway bench;
        private SessionWindow[] windows;
        private int perProducer;
        private final AtomicLong next = new AtomicLong();
        private final IdleRunCheck check = new IdleRunCheck();

        @Setup(Level.Trial)
        public void open(BenchmarkParams params) throws IOException {
            int producers = params.getThreads();
            perProducer = SESSIONS / producers;
            windows = new SessionWindow[producers];
            for (int i = 0; i < producers; i++) {
                windows[i] = new SessionWindow(perProducer);
            }
            BenchGateway.Options options = new BenchGateway.Options()
                    .listener((message, disposition) -> {
                        check.record(disposition);
                        int session = BenchSessions.index(message.senderId());
                        windows[session / perProducer].finished(session % perProducer);
                    });
            switch (store) {
                case "memory" -> { }
                case "sqlite" -> {
                    dir = DataDirs.create("laneway-bench-accept-");
                    sqlite = SqliteStore.open(dir);
                    options.store(sqlite).journal(sqlite);
                }
                case "redis" -> {
                    redisServer = BenchRedis.start();
                    redis = RedisStore.open(RedisTarget.of(redisServer.url(), "bench"), StoreOptions.defaults());
                    options.store(redis).journal(redis);
                }
                default -> throw new IllegalArgumentException("unknown store " + store);
            }
            bench = new BenchGateway(options);
        }

        /** One message with a fresh platform id to the producer's next session, once that is idle. */
        void accept(int producer) {
            int session = producer * perProducer + windows[producer].nextIdleSession();
            bench.gateway.accept(BenchSessions.message(session, Long.toString(next.getAndIncrement())));
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            try {
                bench.close();
            } finally {
                if (sqlite != null) {
                    sqlite.close();
                    DataDirs.delete(dir);
                }
                if (redis != null) {
                    redis.close();
                    System.out.printf(java.util.Locale.ROOT, "redis round trips per accepted message: %.2f (%d for %d)%n",
                            redis.roundTrips() / (double) Math.max(1, next.get()), redis.roundTrips(), next.get());
                    redisServer.close();
                }
            }
            check.verify(); // a refusal (e.g. storage unavailable) is not an accepted message
            if (check.ran() != next.get()) {
                throw new IllegalStateException(next.get() + " messages accepted but " + check.ran() + " ran");
            }
        }
    }

    /** Which producer a JMH thread is: its share of the sessions. */
    @State(Scope.Thread)
    public static class Producer {
        int index;

        @Setup(Level.Trial)
        public void index(ThreadParams params) {
            index = params.getThreadIndex();
        }
    }

    @Benchmark
    @Threads(1)
    public void producers1(Stores state, Producer producer) {
        state.accept(producer.index);
    }

    @Benchmark
    @Threads(8)
    public void producers8(Stores state, Producer producer) {
        state.accept(producer.index);
    }

    @Benchmark
    @Threads(64)
    public void producers64(Stores state, Producer producer) {
        state.accept(producer.index);
    }
}
