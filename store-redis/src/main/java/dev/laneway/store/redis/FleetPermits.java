package dev.laneway.store.redis;

import java.util.ArrayList;
import dev.laneway.core.fleet.FairShare;
import dev.laneway.core.fleet.FairShares;
import dev.laneway.core.fleet.FleetAllowance;
import dev.laneway.core.fleet.FleetPermitSource;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Jedis;

/**
 * One fleet-wide counting semaphore on Redis, with permits that expire (docs/architecture.md §7.1):
 * {@code permits:<name>} is a sorted set of {@code "<instance>/<n>"} scored by when each permit
 * expires, by Redis's clock. Taking one ({@link FleetScripts#ACQUIRE_PERMIT}) first drops the
 * expired ones, so the permits of an instance that died come back after the ttl; the heartbeat
 * renews this instance's permits every beat. A permit that expired before its renewal (Redis was
 * out of reach for a whole ttl) is lost: counted, logged and reported to the source's listener (the
 * core's {@code FleetAllowance} lowers its allowance, so no new run takes that slot), while the run
 * holding it goes on (the fleet may be over its cap for that run's remaining time only;
 * docs/decisions.md D104).
 *
 * <p>One object per name and instance, kept by {@link RedisFleetMember}: {@code main}'s for the
 * instance's life ({@link #pinned}), a tenant's, the background share's or a pool's only while it
 * holds permits or is being asked for one (the member retires idle ones at its beat, so a fleet of
 * many tenants keeps no object per tenant that ever ran).
 *
 * <p>Concurrency: {@code held} (a concurrent set of members) and the counters are the only state
 * besides {@code users}, {@code retired} and {@code pinned}, guarded by this object's monitor: a
 * caller {@link #enter}s before asking and {@link #exit}s after, and {@link #retireIfIdle} retires
 * only an object nobody is inside and that holds nothing, so no permit is ever taken on an object
 * the beat no longer renews. {@link #tryAcquire} and {@link #release} ask Redis on the caller's
 * thread (one round trip each), outside the monitor.
 */
public final class FleetPermits {

    private static final Logger log = LoggerFactory.getLogger(FleetPermits.class);

    /** A permit this instance holds. */
    public record Permit(String name, String member) {
    }

    /**
     * How long a refused ask marks this instance as wanting a permit (docs/decisions.md D228): four
     * of the allowance's 250 ms retries, so a waiting instance stays marked between its asks.
     */
    static final java.time.Duration REFUSAL_REMEMBERED = FleetAllowance.RETRY_EVERY.multipliedBy(4);

    private final RedisStore store;
    private final String name;
    private final String key;
    private final String demandKey;
    private final String refusedKey;
    private final String instance;
    private final FleetTiming timing;
    private volatile int cap;
    private final Set<String> held = ConcurrentHashMap.newKeySet();
    private final AtomicLong serial = new AtomicLong();
    private final LongAdder lost = new LongAdder();
    // member -> the core's view of a permit taken through a source, to report its loss to that source
    private final Map<String, SourcePermit> sourcePermits = new ConcurrentHashMap<>();
    private int users; // guarded by this: callers between enter() and exit()
    private boolean retired; // guarded by this: dropped by the member, never used again
    private boolean pinned; // guarded by this: main's, kept for the instance's life

    FleetPermits(RedisStore store, String name, int cap, String instance, FleetTiming timing) {
        this.store = store;
        this.name = Objects.requireNonNull(name, "name");
        this.key = store.keys().permits(name);
        this.demandKey = store.keys().demand(name);
        this.refusedKey = store.keys().refused(name);
        this.instance = instance;
        this.timing = timing;
        setCap(cap);
    }

    public String name() {
        return name;
    }

    public int cap() {
        return cap;
    }

    /** The fleet-wide cap (every instance of the fleet has the same configuration). */
    public void setCap(int cap) {
        if (cap < 1) {
            throw new IllegalArgumentException("a fleet permit cap must be at least 1, got " + cap);
        }
        this.cap = cap;
    }

    /**
     * Takes one permit when fewer than the cap are held across the fleet; empty when not. One round
     * trip.
     *
     * @throws dev.laneway.store.StoreException when Redis cannot be asked
     */
    public Optional<Permit> tryAcquire() {
        String member = instance + "/" + serial.incrementAndGet();
        Object taken = store.query(jedis -> RedisStore.evalScript(jedis, FleetScripts.ACQUIRE_PERMIT,
                List.of(key, refusedKey), List.of(member, Integer.toString(cap), Long.toString(timing.ttl().toMillis()),
                        instance, Long.toString(REFUSAL_REMEMBERED.toMillis()))));
        if (!Long.valueOf(1).equals(taken)) {
            return Optional.empty();
        }
        held.add(member);
        return Optional.of(new Permit(name, member));
    }

    /**
     * Publishes this instance's {@code demand} for the cap and returns its fair share of it
     * (docs/decisions.md D228): the demands of every instance that published one within a ttl, the
     * permits each holds and whether it was refused one lately, split by the core's
     * {@link FairShares}. One round trip.
     *
     * @throws dev.laneway.store.StoreException when Redis cannot be asked
     */
    public FairShare share(int demand) {
        if (demand < 0) {
            throw new IllegalArgumentException(name + ": a demand must be at least 0, got " + demand);
        }
        List<?> rows = (List<?>) store.query(jedis -> RedisStore.evalScript(jedis, FleetScripts.PUBLISH_DEMAND,
                List.of(demandKey, key, refusedKey), List.of(instance, Integer.toString(demand),
                        Long.toString(timing.ttl().toMillis()))));
        List<FairShares.Instance> instances = new ArrayList<>(rows.size() / 4);
        for (int i = 0; i + 3 < rows.size(); i += 4) {
            instances.add(new FairShares.Instance(String.valueOf(rows.get(i)), ((Number) rows.get(i + 1)).intValue(),
                    ((Number) rows.get(i + 2)).intValue(), ((Number) rows.get(i + 3)).intValue() == 1));
        }
        return FairShares.of(cap, instance, instances);
    }

    /**
     * These permits as the core's {@link FleetPermitSource}, for {@code FleetAllowance} to gate a
     * scheduler with; a permit lost at a beat is reported to its listener, so the allowance drops.
     */
    public FleetPermitSource source() {
        LostTo lostTo = new LostTo();
        return new FleetPermitSource() {
            @Override
            public FleetPermitSource.Permit tryAcquire() {
                return acquireFor(lostTo);
            }

            @Override
            public FairShare share(int demand) {
                return FleetPermits.this.share(demand);
            }

            @Override
            public void onLost(Consumer<FleetPermitSource.Permit> listener) {
                lostTo.listener = Objects.requireNonNull(listener, "listener");
            }
        };
    }

    /** Where one source's lost permits are told. */
    static final class LostTo {
        volatile Consumer<FleetPermitSource.Permit> listener = permit -> { };
    }

    /** Takes a permit for a source whose losses go to {@code lostTo}; null when the fleet is at the cap. */
    FleetPermitSource.Permit acquireFor(LostTo lostTo) {
        Optional<FleetPermits.Permit> taken = tryAcquire();
        return taken.isEmpty() ? null : new SourcePermit(taken.get(), lostTo);
    }

    /** Before asking through this object: false when it was retired (ask the member for the current one). */
    synchronized boolean enter() {
        if (retired) {
            return false;
        }
        users++;
        return true;
    }

    synchronized void exit() {
        users--;
    }

    /** Keeps it for the instance's life; false when it was retired already (ask the member again). */
    synchronized boolean pin() {
        if (retired) {
            return false;
        }
        pinned = true;
        return true;
    }

    /** At the beat: retires it when it is not pinned, nobody is asking through it and it holds no permit. */
    synchronized boolean retireIfIdle() {
        if (pinned || users > 0 || !held.isEmpty()) {
            return false;
        }
        retired = true;
        return true;
    }

    /** A permit as the core sees it: one object per permit taken, so the lost one is found in the allowance's deque. */
    private final class SourcePermit implements FleetPermitSource.Permit {
        private final Permit permit;
        private final LostTo lostTo;

        SourcePermit(Permit permit, LostTo lostTo) {
            this.permit = permit;
            this.lostTo = lostTo;
            sourcePermits.put(permit.member(), this);
        }

        @Override
        public void release() {
            FleetPermits.this.release(permit);
        }
    }

    /** Gives a permit back (best effort: one Redis cannot take back expires by itself). */
    public void release(Permit permit) {
        sourcePermits.remove(permit.member());
        if (!held.remove(permit.member())) {
            return;
        }
        try {
            store.query(jedis -> jedis.zrem(key, permit.member()));
        } catch (RuntimeException e) {
            log.debug("fleet: could not give back permit {} of {} ({}); it expires by itself", permit.member(), name,
                    e.getMessage());
        }
    }

    /** Permits this instance holds. */
    public int heldHere() {
        return held.size();
    }

    /** Unexpired permits held across the fleet. One round trip. */
    public long inUse() {
        return (Long) store.query(jedis -> RedisStore.evalScript(jedis, FleetScripts.COUNT_PERMITS, List.of(key),
                List.of()));
    }

    /** Permits that expired while this instance still held them. */
    public long lost() {
        return lost.sum();
    }

    /** Renews every held permit (the heartbeat). */
    void renew(Jedis jedis) {
        List<String> members = new ArrayList<>(held);
        if (members.isEmpty()) {
            return;
        }
        List<String> args = new ArrayList<>(members.size() + 1);
        args.add(Long.toString(timing.ttl().toMillis()));
        args.addAll(members);
        List<?> renewed = (List<?>) RedisStore.evalScript(jedis, FleetScripts.RENEW_PERMITS, List.of(key), args);
        for (int i = 0; i < members.size(); i++) {
            if (!Long.valueOf(1).equals(renewed.get(i)) && held.remove(members.get(i))) {
                lost.increment();
                log.warn("fleet: permit {} of {} expired before it was renewed (Redis was out of reach); the run"
                        + " holding it goes on, and this instance counts one permit fewer", members.get(i), name);
                SourcePermit gone = sourcePermits.remove(members.get(i));
                if (gone != null) {
                    try {
                        gone.lostTo.listener.accept(gone);
                    } catch (RuntimeException e) {
                        log.warn("fleet: a permit-lost listener threw", e);
                    }
                }
            }
        }
    }

    /** At leave: gives every held permit back. */
    void releaseAll() {
        for (String member : new ArrayList<>(held)) {
            release(new Permit(name, member));
        }
        try {
            store.query(jedis -> jedis.hdel(demandKey, instance)); // wants nothing more: others' shares grow now
        } catch (RuntimeException e) {
            log.debug("fleet: could not withdraw the {} demand ({}); it expires by itself", name, e.getMessage());
        }
    }
}
