package dev.laneway.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.channel.SeenIds;
import dev.laneway.store.Fixtures;
import dev.laneway.store.StoreException;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Platform ids seen fleet-wide (docs/behaviour.md §17, "Ingress"): two instances (two stores of one
 * fleet) against one real Redis, as two gateways behind Slack's connections or Telegram's webhook.
 */
class FleetSeenIdsTest {

    private final RedisServer server = RedisServer.shared();
    private final FleetMembers fleet = FleetMembers.on(server);

    @AfterEach
    void closeAll() throws Exception {
        fleet.close();
    }

    private int instances;

    /** An instance of the fleet whose heartbeat lives (its {@code instance:<id>} key is set). */
    private SeenIds instance(String kind) {
        return instance(kind, "i" + ++instances);
    }

    private SeenIds instance(String kind, String id) {
        RedisStore store = fleet.store(Fixtures.clock());
        try (Jedis jedis = server.client()) {
            jedis.hset("laneway:{support}:instance:" + id, "host", "test");
        }
        return RedisSeenIds.on(store, id).forKind(kind, Duration.ofHours(1), 10);
    }

    /**
     * docs/decisions.md D184: a claim is a repeat only once handed over; while its instance lives it
     * is pending (never a repeat: the message may not be journaled yet), and once its instance's
     * heartbeat is gone the redelivery takes it over; the dead instance's late give-back leaves it.
     */
    @Test
    void aClaimIsPendingWhileItsInstanceLives_takenOverOnceItIsGone_andARepeatOnlyWhenHandedOver() {
        SeenIds a = instance("telegram-updates:42", "alpha");
        SeenIds b = instance("telegram-updates:42", "beta");
        assertEquals(SeenIds.Claim.NEW, a.claim("7001"));
        assertEquals(SeenIds.Claim.PENDING, b.claim("7001"), "alpha lives and has not journaled it: not a repeat");
        assertEquals(SeenIds.Claim.PENDING, a.claim("7001"), "its own hand-over still in flight");
        assertFalse(b.add("7001"));
        try (Jedis jedis = server.client()) {
            jedis.del("laneway:{support}:instance:alpha");          // kill -9: alpha's heartbeat expires
        }
        assertEquals(SeenIds.Claim.NEW, b.claim("7001"), "a dead instance's claim is taken over");
        assertEquals(SeenIds.Claim.PENDING, a.claim("7001"), "now beta's claim");
        assertFalse(a.remove("7001"), "alpha's late give-back does not delete beta's claim");
        b.taken("7001");
        assertEquals(SeenIds.Claim.SEEN, a.claim("7001"));
        assertEquals(SeenIds.Claim.SEEN, b.claim("7001"), "handed over: a repeat for everyone");
        assertFalse(b.remove("7001"), "a handed-over id is kept");
        assertEquals(SeenIds.Claim.SEEN, a.claim("7001"));
    }

    @Test
    void aClaimWrittenByAnInstanceThatIsGone_isTakenAtOnce() {
        SeenIds b = instance("slack-events:A1", "beta");
        try (Jedis jedis = server.client()) {
            jedis.set("laneway:{support}:seen:slack-events:A1:Ev9", "c:gone", redis.clients.jedis.params.SetParams
                    .setParams().px(RedisSeenIds.CLAIM.toMillis()));
        }
        assertEquals(SeenIds.Claim.NEW, b.claim("Ev9"));
    }

    @Test
    void twoInstancesHandedTheSameEventId_exactlyOneTakesIt_evenAtTheSameMoment() throws Exception {
        SeenIds a = instance("slack-events:A1");
        SeenIds b = instance("slack-events:A1");
        ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
        try {
            for (int event = 0; event < 50; event++) {
                String id = "Ev" + event;
                Callable<Boolean> onA = () -> a.add(id);
                Callable<Boolean> onB = () -> b.add(id);
                Future<Boolean> first = threads.submit(onA);
                Future<Boolean> second = threads.submit(onB);
                int takers = (first.get(10, TimeUnit.SECONDS) ? 1 : 0) + (second.get(10, TimeUnit.SECONDS) ? 1 : 0);
                assertEquals(1, takers, id + " is taken by exactly one instance");
            }
        } finally {
            threads.shutdownNow();
        }
        assertFalse(a.add("Ev7"), "a later redelivery to either is a repeat");
        assertFalse(b.add("Ev7"));
    }

    @Test
    void kindsAreSeparate_andAForgottenIdIsTakenAgain() {
        SeenIds slack = instance("slack-events:A1");
        SeenIds telegram = instance("telegram-updates:42");
        assertTrue(slack.add("100"));
        assertTrue(telegram.add("100"), "another id space");
        assertTrue(slack.remove("100"));
        assertTrue(instance("slack-events:A1").add("100"), "forgotten: its redelivery is taken");
        assertThrows(IllegalArgumentException.class, () -> RedisSeenIds.on(null, " "));
    }

    @Test
    void anIdIsOnlyClaimedUntilTaken_thenKeptForTheWholeTtl() {
        SeenIds a = instance("telegram-updates:42");
        assertTrue(a.add("5000"));
        String key = "laneway:{support}:seen:telegram-updates:42:5000";
        try (Jedis jedis = server.client()) {
            long claimed = jedis.pttl(key);
            assertTrue(claimed > 0 && claimed <= RedisSeenIds.CLAIM.toMillis(),
                    "a claim expires soon, so an instance dying before the hand-over loses nothing: " + claimed);
            a.taken("5000");
            long kept = jedis.pttl(key);
            assertTrue(kept > RedisSeenIds.CLAIM.toMillis() && kept <= Duration.ofHours(1).toMillis(), "kept: " + kept);
        }
    }

    @Test
    void redisUnreachable_throwsNamingTheUrl_ratherThanGuess() {
        RedisServer own = RedisServer.start();
        try {
            RedisStore store = fleet.store(own, Fixtures.clock());
            SeenIds ids = RedisSeenIds.on(store, "i1").forKind("slack-events:A1", Duration.ofHours(1), 10);
            own.stop();
            StoreException e = assertThrows(StoreException.class, () -> ids.add("Ev1"));
            assertTrue(e.getMessage().contains("127.0.0.1"), e.getMessage());
        } finally {
            own.close();
        }
    }
}
