package dev.laneway.store.redis;

import dev.laneway.core.SessionKey;
import dev.laneway.core.fleet.Lease;
import dev.laneway.core.fleet.SessionLeases;
import dev.laneway.store.StoreException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Jedis;

/**
 * Session leases on Redis (docs/architecture.md §7.1): {@code lease:<session>} holds the instance
 * and the fencing token and expires after the fleet's ttl unless renewed. Taking a lease is one
 * script ({@link FleetScripts#ACQUIRE_LEASE}): granted when nobody else holds it, with a token from
 * the fleet's counter, so tokens only rise. {@link RedisFleetMember}'s heartbeat renews every held
 * lease in one script per beat; a lease Redis no longer has with our token, or one this instance
 * could not renew for a whole ttl (Redis may have expired it), is lost: dropped here and its
 * {@link LeaseLost} told once.
 *
 * <p>Concurrency: {@code held} (a concurrent map, session to its holding) is the only state; a
 * holding is removed by a conditional remove, so a lease lost, released or replaced is acted on
 * once. {@code Held.confirmedAt} is written by the heartbeat only and read by it. Redis is asked on
 * the caller's thread (a pooled connection): {@link #tryAcquire} and {@link #release} block for one
 * round trip.
 */
final class RedisLeases implements SessionLeases {

    private static final Logger log = LoggerFactory.getLogger(RedisLeases.class);
    /** The names of ingress leases (the Telegram poller's, docs/behaviour.md §17) start with this. */
    static final String INGRESS = "ingress:";

    /** A lease this instance holds. */
    private static final class Held {
        final Lease lease;
        final LeaseLost onLost;
        volatile long confirmedAt; // the clock's millis when the last successful take or renewal was sent

        Held(Lease lease, LeaseLost onLost, long confirmedAt) {
            this.lease = lease;
            this.onLost = onLost;
            this.confirmedAt = confirmedAt;
        }
    }

    private final RedisStore store;
    private final RedisKeys keys;
    private final String instance;
    private final FleetTiming timing;
    private final InstantSource clock;
    private final Map<SessionKey, Held> held = new ConcurrentHashMap<>();

    RedisLeases(RedisStore store, String instance, FleetTiming timing, InstantSource clock) {
        this.store = store;
        this.keys = store.keys();
        this.instance = instance;
        this.timing = timing;
        this.clock = clock;
    }

    @Override
    public Optional<Lease> tryAcquire(SessionKey session, LeaseLost onLost) {
        long sent = clock.millis();
        List<?> reply = (List<?>) store.query(jedis -> RedisStore.evalScript(jedis, FleetScripts.ACQUIRE_LEASE,
                List.of(keys.lease(session.value()), keys.fence()),
                List.of(instance, Long.toString(timing.ttl().toMillis()))));
        long token = (Long) reply.get(0);
        if (token == 0) {
            return Optional.empty();
        }
        Lease lease = new Lease(session, token);
        held.put(session, new Held(lease, onLost, sent));
        return Optional.of(lease);
    }

    @Override
    public void release(Lease lease) {
        Held holding = held.get(lease.session());
        if (holding == null || !holding.lease.equals(lease) || !held.remove(lease.session(), holding)) {
            return; // lost meanwhile, or already released
        }
        try {
            store.query(jedis -> RedisStore.evalScript(jedis, FleetScripts.RELEASE_LEASE,
                    List.of(keys.lease(lease.session().value())), List.of(Long.toString(lease.token()))));
        } catch (StoreException e) {
            log.debug("fleet: could not give back the lease of session {} ({}); it expires by itself",
                    lease.session(), e.getMessage());
        }
    }

    /** Who holds the session's lease now (an instance id), if anyone. One round trip. */
    Optional<String> holder(SessionKey session) {
        return Optional.ofNullable(store.query(jedis -> jedis.hget(keys.lease(session.value()), "instance")));
    }

    /** How many leases this instance holds. */
    int count() {
        return held.size();
    }

    /** How many session leases this instance holds: the ingress leases ({@code ingress:...}) not counted. */
    int sessionCount() {
        int sessions = 0;
        for (SessionKey session : held.keySet()) {
            if (!session.value().startsWith(INGRESS)) {
                sessions++;
            }
        }
        return sessions;
    }

    /**
     * Renews every held lease in one script on {@code jedis}; a lease Redis no longer has with our
     * token is lost. Called by the heartbeat, which catches a failure and calls {@link #unconfirmed}.
     */
    void renew(Jedis jedis, long sentAt) {
        List<Held> holdings = new ArrayList<>(held.values());
        if (holdings.isEmpty()) {
            return;
        }
        List<String> leaseKeys = new ArrayList<>(holdings.size());
        List<String> args = new ArrayList<>(holdings.size() + 1);
        args.add(Long.toString(timing.ttl().toMillis()));
        for (Held holding : holdings) {
            leaseKeys.add(keys.lease(holding.lease.session().value()));
            args.add(Long.toString(holding.lease.token()));
        }
        List<?> renewed = (List<?>) RedisStore.evalScript(jedis, FleetScripts.RENEW_LEASES, leaseKeys, args);
        for (int i = 0; i < holdings.size(); i++) {
            if (Long.valueOf(1).equals(renewed.get(i))) {
                holdings.get(i).confirmedAt = sentAt;
            } else {
                lose(holdings.get(i), "another instance holds it now, or it expired");
            }
        }
    }

    /** Redis could not be asked: every lease not confirmed for a whole ttl may have expired there, so it is lost. */
    void unconfirmed(long now) {
        for (Held holding : held.values()) {
            if (now - holding.confirmedAt >= timing.ttl().toMillis()) {
                lose(holding, "it could not be renewed for " + timing.ttl().toMillis() + " ms");
            }
        }
    }

    /**
     * At leave: gives every held lease back, except one with a fenced settle still unwritten (queued,
     * or kept for a retry): given back, its settle would be refused and an answered message run again
     * on the next holder. Such a lease expires after its ttl instead (docs/architecture.md §7.1).
     *
     * @return how many leases were kept for that reason
     */
    int releaseAll() {
        int kept = 0;
        for (Held holding : new ArrayList<>(held.values())) {
            if (store.unwrittenFence(holding.lease)) {
                held.remove(holding.lease.session(), holding); // no longer renewed: it expires by itself
                kept++;
            } else {
                release(holding.lease);
            }
        }
        return kept;
    }

    private void lose(Held holding, String why) {
        if (!held.remove(holding.lease.session(), holding)) {
            return;
        }
        log.warn("fleet: lost the lease of session {} (fencing token {}): {}; its run is aborted and sends nothing"
                + " more", holding.lease.session(), holding.lease.token(), why);
        try {
            holding.onLost.lost(holding.lease);
        } catch (RuntimeException e) {
            log.warn("fleet: a lease-lost listener threw", e);
        }
    }
}
