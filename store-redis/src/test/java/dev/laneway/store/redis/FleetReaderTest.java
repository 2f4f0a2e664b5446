package dev.laneway.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.SessionKey;
import dev.laneway.core.fleet.Lease;
import dev.laneway.store.Fixtures;
import dev.laneway.store.StoreException;
import dev.laneway.store.redis.FleetMembers.Member;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * {@link RedisFleetReader} against real fleet members on a throwaway Redis (docs/behaviour.md §17,
 * "Seeing the fleet"): the live instances with their heartbeat's age, the leases each reported and the
 * {@code main} permits each holds, the poller lease's holder, the pending sessions nobody holds, and
 * that reading runs read commands only and changes no key.
 */
class FleetReaderTest {

    private static final String POLLER = "ingress:telegram:0123456789abcdef";
    private final FleetMembers fleet = FleetMembers.onOwnServers();

    @AfterEach
    void closeAll() throws Exception {
        fleet.close();
    }

    private RedisServer server() {
        return fleet.server(); // closed last
    }

    private Member instance(RedisServer on) {
        return fleet.join(on, FleetTiming.DEFAULTS);
    }

    @Test
    void theReport_namesEachLiveInstance_itsLeasesAndPermits_thePoller_andTheUnleasedSessions() throws Exception {
        {
            RedisServer own = server();
            Jedis redis = own.client();
            fleet.closing(redis);
            Member a = instance(own);
            Member b = instance(own);
            a.member().leases().tryAcquire(SessionKey.of("telegram:dm:ada"), lost -> { }).orElseThrow();
            a.member().leases().tryAcquire(SessionKey.of("telegram:dm:bob"), lost -> { }).orElseThrow();
            Lease poller = b.member().leases().tryAcquire(SessionKey.of(POLLER), lost -> { }).orElseThrow();
            FleetPermits main = a.member().permits("main", 4);
            main.tryAcquire().orElseThrow();
            main.tryAcquire().orElseThrow();
            b.member().permits("main", 4).tryAcquire().orElseThrow();
            a.member().beat(); // reports its leases
            b.member().beat();
            a.store().append(Fixtures.entry(1, "telegram:dm:ada", "m1")).join(); // held by A
            a.store().append(Fixtures.entry(2, "slack:dm:cyd", "m2")).join(); // nobody holds it
            a.store().flush();

            Map<String, String> before = keyspace(redis);
            redis.configResetStat();
            FleetReport report = RedisFleetReader.read(RedisTarget.of(own.url(), "support"), List.of(POLLER,
                    "ingress:telegram:ffffffffffffffff"));
            Set<String> commands = commandsRun(redis);

            assertEquals("support", report.fleet());
            assertEquals(List.of(a.member().id(), b.member().id()).stream().sorted().toList(),
                    report.instances().stream().map(FleetReport.Member::id).toList());
            FleetReport.Member ra = report.member(a.member().id()).orElseThrow();
            FleetReport.Member rb = report.member(b.member().id()).orElseThrow();
            assertEquals(2, ra.leases(), "A's session leases");
            assertEquals(0, rb.leases(), "the poller's lease is not a session lease");
            assertEquals(2, ra.mainPermits());
            assertEquals(1, rb.mainPermits());
            assertTrue(ra.heartbeatAgeMillis() >= 0 && ra.heartbeatAgeMillis() < 10_000, ra.toString());
            assertTrue(ra.startedAt() > 0 && !ra.host().isEmpty(), ra.toString());
            assertEquals(3, report.mainPermitsInUse());
            assertEquals(List.of(new FleetReport.IngressLease(POLLER, b.member().id(), poller.token()),
                    new FleetReport.IngressLease("ingress:telegram:ffffffffffffffff", null, 0)), report.ingress());
            assertEquals(2, report.pendingMessages());
            assertEquals(List.of("slack:dm:cyd"), report.unleased());

            assertEquals(before, keyspace(redis), "reading changed no key");
            Set<String> reads = Set.of("ping", "time", "get", "hget", "hgetall", "zrange", "zrangebyscore", "zcard",
                    "exists", "client|setname", "client", "hello", "config|resetstat", "config", "info");
            assertTrue(reads.containsAll(commands), "only reads ran: " + commands);
        }
    }

    @Test
    void anInstanceWhoseHeartbeatExpired_isNotListed() throws Exception {
        {
            RedisServer own = server();
            Jedis redis = own.client();
            fleet.closing(redis);
            Member a = instance(own);
            Member b = instance(own);
            redis.del(a.store().keys().instance(b.member().id())); // its heartbeat key expired
            FleetReport report = RedisFleetReader.read(a.store(), List.of());
            assertEquals(List.of(a.member().id()), report.instances().stream().map(FleetReport.Member::id).toList());
        }
    }

    @Test
    void anUnreachableRedis_orOneWithoutAFleet_isAClearError_withoutThePassword() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        StoreException unreachable = assertThrows(StoreException.class, () -> RedisFleetReader.read(
                RedisTarget.of("redis://ops:TOP-SECRET@127.0.0.1:" + closed, "support"), List.of()));
        assertTrue(unreachable.getMessage().startsWith("could not reach the Laneway store on Redis at redis://***@127.0.0.1:"
                + closed + " (gateway.store.url)"), unreachable.getMessage());
        assertTrue(!unreachable.getMessage().contains("TOP-SECRET"));

        {
            RedisServer own = server();
            StoreException empty = assertThrows(StoreException.class,
                    () -> RedisFleetReader.read(RedisTarget.of(own.url(), "support"), List.of()));
            assertTrue(empty.getMessage().contains("holds no Laneway fleet yet"), empty.getMessage());
        }
    }

    /** Every key with its type and contents (no ttl: the clock moves). */
    private static Map<String, String> keyspace(Jedis redis) {
        Map<String, String> all = new TreeMap<>();
        for (String key : redis.keys("*")) {
            String type = redis.type(key);
            String value = switch (type) {
                case "string" -> redis.get(key);
                case "hash" -> new TreeMap<>(redis.hgetAll(key)).toString();
                case "zset" -> redis.zrangeWithScores(key, 0, -1).toString();
                case "list" -> redis.lrange(key, 0, -1).toString();
                case "stream" -> redis.xlen(key) + " entries";
                default -> type;
            };
            all.put(key, type + " " + value);
        }
        return all;
    }

    /** The commands Redis ran since the last CONFIG RESETSTAT (the reader's, and this test's INFO). */
    private static Set<String> commandsRun(Jedis redis) {
        Set<String> names = new java.util.TreeSet<>();
        for (String line : redis.info("commandstats").lines().toList()) {
            if (line.startsWith("cmdstat_")) {
                names.add(line.substring("cmdstat_".length(), line.indexOf(':')));
            }
        }
        return names;
    }
}
