package dev.laneway.store.redis;

import dev.laneway.core.SessionKey;
import dev.laneway.core.fleet.Fleet;
import dev.laneway.core.fleet.FairShare;
import dev.laneway.core.fleet.FleetCaps;
import dev.laneway.core.fleet.FleetPermitSource;
import dev.laneway.core.fleet.IngressElection;
import dev.laneway.core.fleet.SessionLeases;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;
import dev.laneway.core.time.Scheduler;
import dev.laneway.store.StoreException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This instance as a member of its fleet (docs/behaviour.md §17, docs/architecture.md §7.1): its
 * identity, its heartbeat, its session leases ({@link #leases()}) and its fleet-wide permits
 * ({@link #permits}). Every {@link FleetTiming#renewEvery()} on the injected scheduler, the beat
 * (run on the executor, never on the timer thread) writes {@code instance:<id>} with the ttl and
 * renews every lease and permit held here; what the beat finds lost is reported and dropped; when
 * Redis cannot be asked, every lease not confirmed for a whole ttl is lost (Redis may have expired
 * it). {@link #close()} gives everything back and removes the instance, so the others need not wait
 * for the ttl (a rolling restart).
 *
 * Another instance's {@code /stop} of a session held here arrives on the nudge stream and is run
 * on the executor; this instance's own {@code /stop} ({@link #requestStop}) raises the session's
 * durable stop mark and asks the holder without waiting (docs/behaviour.md §17, decision D233).
 *
 * <p>Concurrency: {@code beatLock} serialises beats and {@link #close()} and guards {@code next}
 * (the scheduled beat) and {@code closed}; {@code permits} is a concurrent map (an entry retired at
 * a beat is removed, and a caller that finds a retired one removes it and asks again); leases and
 * permits guard themselves; {@code stopHandler} is volatile (set once, before the nudges are read)
 *.
 */
public final class RedisFleetMember implements Fleet, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RedisFleetMember.class);

    private final RedisStore store;
    private final RedisKeys keys;
    private final String id;
    private final String host;
    private final long startedAt;
    private final FleetTiming timing;
    private final InstantSource clock;
    private final Scheduler scheduler;
    private final Executor executor;
    private final RedisLeases leases;
    private final Map<String, FleetPermits> permits = new ConcurrentHashMap<>();
    private final ReentrantLock beatLock = new ReentrantLock();
    private Scheduler.Cancellable next = Scheduler.Cancellable.NONE; // guarded by beatLock
    private boolean closed; // guarded by beatLock
    private boolean unreachable; // guarded by beatLock: the last beat could not reach Redis
    private NudgeListener nudges; // guarded by beatLock
    private volatile ToIntFunction<SessionKey> stopHandler = session -> 0;
    /** How long a session's stop mark is kept (docs/behaviour.md §17, D233; L58). */
    static final Duration STOP_MARK_TTL = Duration.ofHours(24);

    private RedisFleetMember(RedisStore store, String id, FleetTiming timing, InstantSource clock, Scheduler scheduler,
                             Executor executor) {
        this.store = store;
        this.keys = store.keys();
        this.id = id;
        this.host = hostName();
        this.startedAt = clock.millis();
        this.timing = timing;
        this.clock = clock;
        this.scheduler = scheduler;
        this.executor = executor;
        this.leases = new RedisLeases(store, id, timing, clock);
    }

    /**
     * Joins the fleet of {@code store}: a new instance id, the first heartbeat now (a failure throws:
     * an instance that cannot reach Redis does not start), then a beat every {@code renewEvery}.
     *
     * @throws StoreException when Redis cannot be reached
     */
    public static RedisFleetMember join(RedisStore store, FleetTiming timing, InstantSource clock, Scheduler scheduler,
                                        Executor executor) {
        Objects.requireNonNull(store, "store");
        RedisFleetMember member = new RedisFleetMember(store, newId(), Objects.requireNonNull(timing, "timing"),
                Objects.requireNonNull(clock, "clock"), Objects.requireNonNull(scheduler, "scheduler"),
                Objects.requireNonNull(executor, "executor"));
        member.heartbeatOnly();
        store.shareSequence();
        long indexed = store.indexPending();
        if (indexed > 0) {
            log.info("fleet: indexed {} pending message(s) written before the session index existed", indexed);
        }
        member.beatLock.lock();
        try {
            member.scheduleLocked();
        } finally {
            member.beatLock.unlock();
        }
        log.info("fleet: instance {} joined fleet {} (lease ttl {} ms, renewed every {} ms)", member.id,
                store.keys().fleet(), timing.ttl().toMillis(), timing.renewEvery().toMillis());
        return member;
    }

    /** This instance's id in the fleet: unique per process start. */
    public String id() {
        return id;
    }

    @Override
    public String instanceId() {
        return id;
    }

    @Override
    public void nudge(SessionKey session) {
        store.query(jedis -> RedisStore.evalScript(jedis, FleetScripts.NUDGE, List.of(keys.lease(session.value())),
                List.of(keys.prefix(), session.value())));
    }

    @Override
    public void onNudge(Consumer<SessionKey> handler) {
        beatLock.lock();
        try {
            if (closed || nudges != null) {
                throw new IllegalStateException("nudges are already read (or the member left)");
            }
            nudges = new NudgeListener(store, keys.nudges(id), id, handler, this::stopRequested);
            nudges.start();
        } finally {
            beatLock.unlock();
        }
    }

    @Override
    public Optional<String> holder(SessionKey session) {
        return leases.holder(session);
    }

    /**
     * Raises the session's durable stop mark and, when another instance holds the lease, adds a stop
     * request to its nudge stream: one script, no wait for an answer (docs/behaviour.md §17, D233).
     */
    @Override
    public Fleet.Stop requestStop(SessionKey session) {
        List<?> result = (List<?>) store.query(jedis -> RedisStore.evalScript(jedis, FleetScripts.STOP_REQUEST,
                List.of(keys.lease(session.value()), keys.seq(), keys.stop(session.value())),
                List.of(keys.prefix(), session.value(), id, Long.toString(STOP_MARK_TTL.toMillis()))));
        String holder = text(result.get(0));
        long upTo = Long.parseLong(text(result.get(1)));
        return new Fleet.Stop(holder.isEmpty() ? null : holder, upTo);
    }

    @Override
    public long stoppedUpTo(SessionKey session) {
        String mark = store.query(jedis -> jedis.get(keys.stop(session.value())));
        return mark == null ? 0 : Long.parseLong(mark);
    }

    private static String text(Object value) {
        return value instanceof byte[] bytes ? new String(bytes, java.nio.charset.StandardCharsets.UTF_8)
                : String.valueOf(value);
    }

    @Override
    public void onStop(ToIntFunction<SessionKey> handler) {
        stopHandler = Objects.requireNonNull(handler, "handler");
    }

    /** Another instance asked to stop a session held here: stopped on the executor (D233: nobody waits for the count). */
    private void stopRequested(SessionKey session) {
        executor.execute(() -> {
            try {
                stopHandler.applyAsInt(session);
            } catch (RuntimeException e) {
                log.warn("fleet: stopping session {} for another instance failed", session, e);
            }
        });
    }

    @Override
    public List<SessionKey> unleased(int limit) {
        List<?> sessions = (List<?>) store.query(jedis -> RedisStore.evalScript(jedis, FleetScripts.UNLEASED,
                List.of(keys.pendingSessions()), List.of(keys.prefix(), "1000", Integer.toString(limit))));
        List<SessionKey> keys = new ArrayList<>(sessions.size());
        for (Object session : sessions) {
            keys.add(SessionKey.of(String.valueOf(session)));
        }
        return keys;
    }

    @Override
    public Duration sweepEvery() {
        return timing.renewEvery();
    }

    public FleetTiming timing() {
        return timing;
    }

    /** The session leases, taken and renewed for this instance. */
    @Override
    public SessionLeases leases() {
        return leases;
    }

    /** Leases this instance holds now. */
    public int leasesHeld() {
        return leases.count();
    }

    /** Who holds a session's lease now, if anyone (one round trip). */
    public Optional<String> leaseHolder(SessionKey session) {
        return leases.holder(session);
    }

    /**
     * The fleet-wide permits called {@code name} with this cap, kept for the instance's life ({@code main};
     * one object per name; a later call sets the cap).
     */
    public FleetPermits permits(String name, int cap) {
        while (true) {
            FleetPermits found = permits.computeIfAbsent(name, n -> new FleetPermits(store, n, cap, id, timing));
            if (found.pin()) {
                found.setCap(cap);
                return found;
            }
            permits.remove(name, found); // retired by the beat meanwhile
        }
    }

    /**
     * The fleet's named caps on Redis (docs/architecture.md §7.1): {@code tenant:<id>},
     * {@code class:background}, {@code provider:<pool>}. Each ask finds the name's permits (made on
     * demand, retired by the beat once they hold nothing), so only busy caps cost an object and a renewal.
     */
    public FleetCaps caps() {
        return (name, cap) -> {
            Objects.requireNonNull(name, "name");
            if (cap < 1) {
                throw new IllegalArgumentException("a fleet permit cap must be at least 1, got " + cap + " for " + name);
            }
            FleetPermits.LostTo lostTo = new FleetPermits.LostTo();
            return new FleetPermitSource() {
                @Override
                public FleetPermitSource.Permit tryAcquire() {
                    return through(name, cap, found -> found.acquireFor(lostTo));
                }

                @Override
                public FairShare share(int demand) {
                    return through(name, cap, found -> found.share(demand)); // a pool's fair share (D228)
                }

                @Override
                public void onLost(Consumer<FleetPermitSource.Permit> listener) {
                    lostTo.listener = Objects.requireNonNull(listener, "listener");
                }
            };
        };
    }

    /** Asks through the current permits object of {@code name} (made when missing, never one the beat retired). */
    private <T> T through(String name, int cap, java.util.function.Function<FleetPermits, T> ask) {
        while (true) {
            FleetPermits found = permits.computeIfAbsent(name, n -> new FleetPermits(store, n, cap, id, timing));
            if (!found.enter()) {
                permits.remove(name, found); // retired by the beat meanwhile
                continue;
            }
            try {
                found.setCap(cap);
                return ask.apply(found);
            } finally {
                found.exit();
            }
        }
    }

    /** Whether it keeps an object for the permits of {@code name} now (for tests of the retirement). */
    boolean keepsPermits(String name) {
        return permits.containsKey(name);
    }

    /** Permits this instance holds of the cap {@code name} now (0 when none). */
    public int permitsHeld(String name) {
        FleetPermits found = permits.get(name);
        return found == null ? 0 : found.heldHere();
    }

    /**
     * What an ingress election reads of the fleet at each check (docs/behaviour.md §17, "Ingress"):
     * the live instances and whether a lease is held, one round trip each.
     */
    public IngressElection.Standing standing() {
        return new IngressElection.Standing() {
            @Override
            public int liveInstances() {
                return instances().size();
            }

            @Override
            public boolean held(SessionKey key) {
                return leaseHolder(key).isPresent();
            }
        };
    }

    /** The fleet's live instances (whose heartbeat has not expired), in id order. One round trip per instance. */
    public List<String> instances() {
        return store.query(jedis -> {
            List<String> live = new ArrayList<>();
            for (String member : jedis.zrange(keys.instances(), 0, -1)) {
                if (jedis.exists(keys.instance(member))) {
                    live.add(member);
                }
            }
            live.sort(null);
            return live;
        });
    }

    /** One beat now: heartbeat, then every lease and permit renewed. Runs on the caller's thread. */
    void beat() {
        beatLock.lock();
        try {
            if (closed) {
                return;
            }
            long sent = clock.millis();
            try {
                store.query(jedis -> {
                    heartbeat(jedis);
                    leases.renew(jedis, sent);
                    for (FleetPermits each : permits.values()) {
                        each.renew(jedis);
                    }
                    return null;
                });
                permits.values().removeIf(FleetPermits::retireIfIdle); // idle tenants' and pools' permits
                store.heartbeatReached(true);
                if (unreachable) {
                    unreachable = false;
                    log.info("fleet: instance {} reaches Redis again", id);
                }
            } catch (StoreException | ClassCastException e) {
                store.heartbeatReached(false);
                if (!unreachable) {
                    unreachable = true;
                    log.error("fleet: instance {} could not renew its heartbeat, leases and permits ({}); leases not"
                            + " renewed for {} ms are given up", id, e.getMessage(), timing.ttl().toMillis());
                }
                leases.unconfirmed(clock.millis());
            }
        } finally {
            beatLock.unlock();
        }
    }

    /** Leaves the fleet: no more beats, every lease and permit given back, the instance removed. Idempotent. */
    @Override
    public void close() {
        NudgeListener listener;
        beatLock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            next.cancel();
            listener = nudges;
            // the ends this instance queued are written while it still holds their leases: a fenced
            // settle reaching Redis after the release would be refused, and an answered message
            // would run again on the next holder (docs/architecture.md §7.1)
            if (!store.flush(timing.renewEvery())) {
                log.warn("fleet: instance {} leaves with writes Redis has not taken yet; the messages they end"
                        + " stay pending and run again on the sessions' next holder", id);
            }
            int unreleased = leases.releaseAll();
            if (unreleased > 0) {
                log.warn("fleet: instance {} leaves {} lease(s) to expire after {} ms instead of giving them back: the"
                        + " ends of their messages are not written yet", id, unreleased, timing.ttl().toMillis());
            }
            permits.values().forEach(FleetPermits::releaseAll);
            try {
                store.query(jedis -> {
                    jedis.del(keys.instance(id));
                    jedis.zrem(keys.instances(), id);
                    jedis.del(keys.nudges(id));
                    return null;
                });
            } catch (StoreException e) {
                log.debug("fleet: could not remove instance {} ({}); it expires by itself", id, e.getMessage());
            }
        } finally {
            beatLock.unlock();
        }
        if (listener != null) {
            listener.close();
        }
        log.info("fleet: instance {} left fleet {}", id, keys.fleet());
    }

    private void heartbeatOnly() {
        store.query(jedis -> {
            heartbeat(jedis);
            return null;
        });
    }

    private void heartbeat(redis.clients.jedis.Jedis jedis) {
        RedisStore.evalScript(jedis, FleetScripts.HEARTBEAT, List.of(keys.instance(id), keys.instances()),
                List.of(id, Long.toString(timing.ttl().toMillis()), Long.toString(startedAt), host,
                        Integer.toString(leases.sessionCount())));
    }

    private void scheduleLocked() {
        next = scheduler.schedule(timing.renewEvery(), () -> executor.execute(this::beatAndReschedule));
    }

    private void beatAndReschedule() {
        try {
            beat();
        } catch (RuntimeException e) {
            log.error("fleet: instance {}'s beat failed", id, e);
        } finally {
            beatLock.lock();
            try {
                if (!closed) {
                    scheduleLocked();
                }
            } finally {
                beatLock.unlock();
            }
        }
    }

    private static String newId() {
        byte[] random = new byte[3];
        ThreadLocalRandom.current().nextBytes(random);
        return hostName() + "-" + ProcessHandle.current().pid() + "-" + HexFormat.of().formatHex(random);
    }

    private static String hostName() {
        String name = System.getenv("HOSTNAME");
        if (name == null || name.isBlank()) {
            try {
                name = java.net.InetAddress.getLocalHost().getHostName();
            } catch (java.io.IOException e) {
                name = "localhost";
            }
        }
        return name.replaceAll("[^A-Za-z0-9._-]", "_");
    }
}
