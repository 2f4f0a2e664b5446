package dev.laneway.store.redis;

import dev.laneway.store.StoreException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.resps.Tuple;

/**
 * Reads a fleet's state from Redis without writing anything and without joining it (docs/behaviour.md
 * §17, "Seeing the fleet"): the live instances with the age of their heartbeat, the session leases
 * each reported at its last heartbeat and the {@code main} permits each holds, the holders of the
 * ingress leases asked for, the fleet's {@code main} permits in use, the pending messages and the
 * sessions with pending messages that nobody holds a lease for. Plain reads only (no script, no
 * key written, no consumer group), each group in one pipelined round trip; ages are measured by
 * Redis's clock ({@code TIME}), as the fleet's expiries are. Stateless.
 */
public final class RedisFleetReader {

    /** How many sessions with the oldest pending messages are looked at for {@link FleetReport#unleased()}. */
    public static final int LOOK_AT = 1_000;

    private RedisFleetReader() {
    }

    /**
     * The fleet of {@code target}, on a connection of its own (for {@code laneway fleet}).
     *
     * @param ingress the ingress leases to report (names as {@code ingress:telegram:<16 hex>})
     * @throws StoreException naming the URL (credentials masked) when Redis cannot be reached, refuses
     *                        the credentials, belongs to another fleet or has no fleet yet
     */
    public static FleetReport read(RedisTarget target, List<String> ingress) {
        Objects.requireNonNull(target, "target");
        RedisKeys keys = new RedisKeys(target.fleet());
        try (Jedis jedis = new Jedis(new HostAndPort(target.host(), target.port()), RedisStore.clientConfig(target))) {
            jedis.ping();
            if (RedisFleet.inspect(jedis, keys, target) == null) {
                throw new StoreException("The Redis at " + target.redactedUrl() + " holds no Laneway fleet yet (no key "
                        + RedisKeys.FLEET_CLAIM + "): no instance of fleet \"" + target.fleet() + "\" has started there.");
            }
            return read(jedis, keys, ingress);
        } catch (JedisException e) {
            String why = String.valueOf(e.getMessage()).replaceAll("\\.+$", "");
            throw new StoreException("could not reach the Laneway store on Redis at " + target.redactedUrl()
                    + " (gateway.store.url): " + why + ". Check that Redis runs there and that the URL,"
                    + " user and password are right.", e);
        }
    }

    /** The fleet of an open store, on a pooled connection (for {@code /status}). */
    public static FleetReport read(RedisStore store, List<String> ingress) {
        return store.query(jedis -> read(jedis, store.keys(), ingress));
    }

    static FleetReport read(Jedis jedis, RedisKeys keys, List<String> ingress) {
        List<String> now = jedis.time();
        long nowMillis = Long.parseLong(now.get(0)) * 1000 + Long.parseLong(now.get(1)) / 1000;
        List<Tuple> beats = jedis.zrangeWithScores(keys.instances(), 0, -1);

        Pipeline pipeline = jedis.pipelined();
        List<Response<Map<String, String>>> hashes = new ArrayList<>(beats.size());
        for (Tuple beat : beats) {
            hashes.add(pipeline.hgetAll(keys.instance(beat.getElement())));
        }
        Response<List<String>> permits = pipeline.zrangeByScore(keys.permits("main"), "(" + nowMillis, "+inf");
        List<Response<Map<String, String>>> leases = new ArrayList<>(ingress.size());
        for (String name : ingress) {
            leases.add(pipeline.hgetAll(keys.lease(name)));
        }
        Response<Long> pending = pipeline.zcard(keys.pending());
        Response<List<String>> oldest = pipeline.zrange(keys.pendingSessions(), 0, LOOK_AT - 1);
        pipeline.sync();

        Map<String, Integer> permitsByInstance = new HashMap<>();
        for (String member : permits.get()) {
            int slash = member.lastIndexOf('/');
            permitsByInstance.merge(slash < 0 ? member : member.substring(0, slash), 1, Integer::sum);
        }
        List<FleetReport.Member> live = new ArrayList<>();
        for (int i = 0; i < beats.size(); i++) {
            Map<String, String> hash = hashes.get(i).get();
            if (hash.isEmpty()) {
                continue; // its heartbeat key expired: not live (the set keeps it for a while)
            }
            String id = beats.get(i).getElement();
            live.add(new FleetReport.Member(id, hash.getOrDefault("host", ""), number(hash.get("started"), 0),
                    Math.max(0, nowMillis - (long) beats.get(i).getScore()), (int) number(hash.get("leases"), -1),
                    permitsByInstance.getOrDefault(id, 0)));
        }
        live.sort(java.util.Comparator.comparing(FleetReport.Member::id));
        List<FleetReport.IngressLease> holders = new ArrayList<>(ingress.size());
        for (int i = 0; i < ingress.size(); i++) {
            Map<String, String> lease = leases.get(i).get();
            holders.add(new FleetReport.IngressLease(ingress.get(i), lease.get("instance"), number(lease.get("token"), 0)));
        }

        List<String> sessions = oldest.get();
        Pipeline exists = jedis.pipelined();
        List<Response<Boolean>> held = new ArrayList<>(sessions.size());
        for (String session : sessions) {
            held.add(exists.exists(keys.lease(session)));
        }
        exists.sync();
        List<String> unleased = new ArrayList<>();
        for (int i = 0; i < sessions.size(); i++) {
            if (!held.get(i).get()) {
                unleased.add(sessions.get(i));
            }
        }
        return new FleetReport(keys.fleet(), live, permits.get().size(), holders, pending.get(), unleased);
    }

    private static long number(String value, long otherwise) {
        if (value == null) {
            return otherwise;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }
}
