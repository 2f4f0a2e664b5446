package dev.laneway.bench;

import dev.laneway.core.Disposition;
import dev.laneway.core.DropPolicy;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.engine.Gateway;
import dev.laneway.core.engine.GatewaySettings;
import dev.laneway.core.time.SystemScheduler;
import dev.laneway.store.DurableStore;
import dev.laneway.store.SqliteStore;
import dev.laneway.store.StoreOptions;
import dev.laneway.store.redis.FleetPermits;
import dev.laneway.store.redis.FleetTiming;
import dev.laneway.store.redis.RedisFleetMember;
import dev.laneway.store.redis.RedisStore;
import dev.laneway.store.redis.RedisTarget;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * One Laneway instance for the fleet measurements (docs/architecture.md §10), wired as the app
 * wires its store ({@code GatewayApp}): on Redis, {@link RedisStore} joined to its fleet
 * ({@link RedisFleetMember}, default timings) with the fleet-wide {@code main} permits as the cap;
 * on SQLite, {@link SqliteStore}. The agent is a {@link LatencyAgent}, the channel a no-op one
 * (NoopChannel), admission off, no retries, queue debounce 0, collect mode. Messages carry unique
 * platform ids, so dedupe asks the store, as for a real channel.
 *
 * <p>A closed loop ({@link #loop}) keeps one message in flight per session: each message's
 * disposition (any: the message ended) sends that session's next, from the executor, so the
 * listener never blocks. Concurrency: counters are adders; {@code looping} is a concurrent set.
 */
final class FleetNode implements AutoCloseable {

    /** Which store, and whether the instance joins a fleet. */
    enum Kind { SQLITE, REDIS, REDIS_FLEET }

    final Gateway gateway;
    final LatencyAgent agent;
    final DurableStore store;
    final RedisFleetMember member; // null unless REDIS_FLEET
    private final String idPrefix;
    private final SystemScheduler scheduler = new SystemScheduler();
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final AtomicLong nextId = new AtomicLong();
    private final LongAdder ran = new LongAdder();
    private final LongAdder other = new LongAdder();
    private final LongAdder accepted = new LongAdder();
    private final Set<Integer> looping = ConcurrentHashMap.newKeySet();
    private volatile boolean loopStopped;

    /**
     * @param url      the Redis URL (REDIS, REDIS_FLEET) or the SQLite data directory (SQLITE)
     * @param mainCap  the {@code main} cap: fleet-wide on REDIS_FLEET (agents.defaults.maxConcurrent)
     * @param queueCap each session's queue cap (drop policy: refuse the new message)
     * @param idPrefix makes this node's platform message ids unique in the fleet
     */
    FleetNode(Kind kind, String url, int mainCap, int queueCap, Duration latency, String idPrefix) {
        this.idPrefix = idPrefix;
        this.agent = new LatencyAgent(latency);
        this.store = switch (kind) {
            case SQLITE -> SqliteStore.open(Path.of(url));
            case REDIS, REDIS_FLEET -> RedisStore.open(RedisTarget.of(url, "bench"), StoreOptions.defaults());
        };
        RedisFleetMember joined = null;
        try {
            joined = kind == Kind.REDIS_FLEET
                    ? RedisFleetMember.join((RedisStore) store, FleetTiming.DEFAULTS, InstantSource.system(), scheduler,
                            executor)
                    : null;
            Gateway.Builder builder = Gateway.builder()
                    .settings(GatewaySettings.builder()
                            .queueDefaults(new QueueSettings(QueueMode.COLLECT, Duration.ZERO, queueCap, DropPolicy.NEW))
                            .maxPendingRuns(0)
                            .mainMaxConcurrent(mainCap)
                            .failureRetries(0)
                            .build())
                    .scheduler(scheduler)
                    .executor(executor)
                    .agent(agent)
                    .store(store)
                    .journal(store)
                    .listener(this::recorded)
                    .channel(new NoopChannel(null));
            if (joined != null) {
                FleetPermits main = joined.permits("main", mainCap);
                builder.fleet(joined).fleetMain(main.source());
            }
            this.gateway = builder.build();
        } catch (RuntimeException e) {
            if (joined != null) {
                joined.close();
            }
            store.close();
            throw e;
        }
        this.member = joined;
        gateway.start();
    }

    /** A message to session {@code session} with a platform id unique to this node. */
    InboundMessage message(int session, String text) {
        return InboundMessage.builder(BenchSessions.CHANNEL)
                .chatId("c" + session)
                .senderId("u" + session)
                .text(text)
                .platformMessageId(idPrefix + nextId.incrementAndGet())
                .build();
    }

    /** Accepts one message to {@code session}; returns once it is journaled (or refused). */
    void accept(int session, String text) {
        gateway.accept(message(session, text));
        accepted.increment();
    }

    /** Starts the closed loop over these sessions: one message each now, the next when it ends. */
    void loop(int[] sessions) {
        for (int session : sessions) {
            looping.add(session);
        }
        for (int session : sessions) {
            executor.execute(() -> accept(session, "hello from " + session));
        }
    }

    /** The loop sends no more messages. */
    void stopLoop() {
        loopStopped = true;
    }

    private void recorded(InboundMessage message, Disposition disposition) {
        if (disposition == Disposition.RAN || disposition == Disposition.COLLECTED) {
            ran.increment();
        } else {
            other.increment();
        }
        if (!loopStopped && BenchSessions.CHANNEL.equals(message.channel())) {
            int session = BenchSessions.index(message.senderId());
            if (looping.contains(session)) {
                executor.execute(() -> accept(session, "hello from " + session));
            }
        }
    }

    /** Messages that ran (as a run's own or collected into one). */
    long ran() {
        return ran.sum();
    }

    /** Messages that ended any other way (refused, dropped, duplicate): none is expected. */
    long other() {
        return other.sum();
    }

    /** Calls to accept that returned. */
    long accepted() {
        return accepted.sum();
    }

    /** Stops the gateway (grace {@code grace}), leaves the fleet, closes the store. */
    void close(Duration grace) {
        stopLoop();
        agent.releaseAll();
        try {
            gateway.shutdown(grace);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (member != null) {
                member.close();
            }
            scheduler.close();
            executor.shutdownNow();
            agent.close();
            store.close();
        }
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }
}
