package dev.laneway.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.fleet.FleetAllowance;
import dev.laneway.core.lane.LanePermit;
import dev.laneway.core.scheduling.Claim;
import dev.laneway.core.scheduling.MainScheduler;
import dev.laneway.core.scheduling.PriorityClass;
import dev.laneway.core.scheduling.SchedulingObserver;
import dev.laneway.core.scheduling.SchedulingSettings;
import dev.laneway.core.testing.Await;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Fleet-wide permits that expire (docs/architecture.md §7.1): a cap held across instances, a dead
 * instance's permits coming back after the ttl (Redis's clock), renewal by the beat, and a permit
 * that expired before its renewal counted as lost.
 */
class FleetPermitsTest {

    private final RedisServer server = RedisServer.shared();
    private final FleetMembers fleet = FleetMembers.on(server);

    @AfterEach
    void closeAll() throws Exception {
        fleet.close();
    }

    private FleetMembers.Member instance(FleetTiming timing) {
        return fleet.join(timing);
    }

    @Test
    void theCap_holdsAcrossInstances() {
        FleetMembers.Member a = instance(FleetTiming.DEFAULTS);
        FleetMembers.Member b = instance(FleetTiming.DEFAULTS);
        FleetPermits mainA = a.member().permits("main", 2);
        FleetPermits mainB = b.member().permits("main", 2);

        FleetPermits.Permit first = mainA.tryAcquire().orElseThrow();
        mainB.tryAcquire().orElseThrow();
        assertEquals(Optional.empty(), mainA.tryAcquire(), "two of two held in the fleet");
        assertEquals(Optional.empty(), mainB.tryAcquire());
        assertEquals(2, mainA.inUse());

        mainA.release(first);
        assertTrue(mainB.tryAcquire().isPresent(), "the released permit is free for any instance");
        assertEquals(0, mainA.heldHere());
        assertEquals(2, mainB.heldHere());
    }

    @Test
    void twoInstancesMainSchedulers_gatedByRedisPermits_keepTheFleetCap() {
        FleetMembers.Member a = instance(FleetTiming.DEFAULTS);
        FleetMembers.Member b = instance(FleetTiming.DEFAULTS);
        MainScheduler mainA = gatedMain(a, 2);
        MainScheduler mainB = gatedMain(b, 2);
        CompletableFuture<LanePermit> a1 = mainA.acquire(new Claim(PriorityClass.NORMAL, "t", "a1"));
        CompletableFuture<LanePermit> b1 = mainB.acquire(new Claim(PriorityClass.NORMAL, "t", "b1"));
        CompletableFuture<LanePermit> b2 = mainB.acquire(new Claim(PriorityClass.NORMAL, "t", "b2"));
        assertTrue(a1.isDone() && b1.isDone());
        assertFalse(b2.isDone(), "two runs in the fleet: B's second waits though B's own cap has room");
        assertEquals(2, a.member().permits("main", 2).inUse());

        a1.join().close();
        b.clock().advance(RETRY);
        assertTrue(b2.isDone(), "A's permit went back to Redis and B took it at its retry");
        assertEquals(2, b.member().permits("main", 2).heldHere());
    }

    private static final Duration RETRY = Duration.ofMillis(250);

    private static MainScheduler gatedMain(FleetMembers.Member instance, int fleetCap) {
        MainScheduler main = new MainScheduler(SchedulingSettings.defaults(), 8, instance.clock(), Duration.ofMinutes(1),
                SchedulingObserver.NONE);
        FleetAllowance.gate(main, instance.member().permits("main", fleetCap).source(), Runnable::run, instance.clock(),
                RETRY);
        return main;
    }

    @Test
    void aDeadInstancesPermits_comeBackAfterTheTtl() {
        FleetTiming shortLived = FleetTiming.of(Duration.ofMillis(300));
        FleetMembers.Member dead = instance(shortLived);
        FleetMembers.Member alive = instance(FleetTiming.DEFAULTS);
        FleetPermits deadMain = dead.member().permits("main", 2);
        deadMain.tryAcquire().orElseThrow();
        deadMain.tryAcquire().orElseThrow();
        FleetPermits aliveMain = alive.member().permits("main", 2);
        assertEquals(Optional.empty(), aliveMain.tryAcquire());

        // the dead instance never beats again (its clock stands still): Redis's clock runs its permits out
        Await.until("a dead instance's permit is free again", () -> aliveMain.tryAcquire().isPresent());
        // the second was taken a moment after the first, so it runs out a moment later
        Await.until("both came back", () -> aliveMain.tryAcquire().isPresent());
        assertEquals(2, aliveMain.inUse());
    }

    @Test
    void theBeat_renewsHeldPermits_andCountsOneThatExpiredFirstAsLost() {
        FleetTiming timing = new FleetTiming(Duration.ofSeconds(30), Duration.ofSeconds(10));
        FleetMembers.Member a = instance(timing);
        FleetPermits main = a.member().permits("main", 4);
        FleetPermits.Permit kept = main.tryAcquire().orElseThrow();
        FleetPermits.Permit expiring = main.tryAcquire().orElseThrow();
        String key = a.store().keys().permits("main");
        try (Jedis redis = server.client()) {
            long redisNow = Long.parseLong(redis.time().get(0)) * 1000;
            redis.zadd(key, redisNow + 2_000, kept.member()); // about to run out
            redis.zadd(key, redisNow - 1_000, expiring.member()); // ran out before the beat

            a.clock().advance(timing.renewEvery());

            assertTrue(redis.zscore(key, kept.member()) > redisNow + 20_000, "renewed to the ttl");
            assertEquals(null, redis.zscore(key, expiring.member()));
        }
        assertEquals(1, main.lost());
        assertEquals(1, main.heldHere());
        assertEquals(1, main.inUse());
    }

    @Test
    void aPermitThatExpiredBeforeTheBeat_lowersTheSchedulersAllowance_soTheFleetCapHoldsAgain() {
        FleetTiming timing = new FleetTiming(Duration.ofSeconds(30), Duration.ofSeconds(10));
        FleetMembers.Member a = instance(timing);
        FleetMembers.Member b = instance(timing);
        MainScheduler mainA = gatedMain(a, 2);
        MainScheduler mainB = gatedMain(b, 2);
        CompletableFuture<LanePermit> a1 = mainA.acquire(new Claim(PriorityClass.NORMAL, "t", "a1"));
        CompletableFuture<LanePermit> a2 = mainA.acquire(new Claim(PriorityClass.NORMAL, "t", "a2"));
        assertTrue(a1.isDone() && a2.isDone());
        String key = a.store().keys().permits("main");
        try (Jedis redis = server.client()) {
            long redisNow = Long.parseLong(redis.time().get(0)) * 1000;
            String member = redis.zrange(key, 0, 0).get(0);
            redis.zadd(key, redisNow - 1_000, member); // ran out before A's beat (Redis was out of reach)
        }

        CompletableFuture<LanePermit> b1 = mainB.acquire(new Claim(PriorityClass.NORMAL, "t", "b1"));
        assertTrue(b1.isDone(), "B took the expired permit's place");
        a.clock().advance(timing.renewEvery()); // A's beat finds it lost
        assertEquals(1, a.member().permits("main", 2).lost());
        assertEquals(1, mainA.allowance(), "A counts only the permit Redis still has");

        CompletableFuture<LanePermit> a3 = mainA.acquire(new Claim(PriorityClass.NORMAL, "t", "a3"));
        a1.join().close();
        assertFalse(a3.isDone(), "A grants one run fewer: a1's slot does not go to a3 while the fleet is at its cap");
        assertEquals(2, a.member().permits("main", 2).inUse());

        b1.join().close();
        a.clock().advance(RETRY);
        assertTrue(a3.isDone(), "B's permit went back to Redis and A took it at its retry");
        assertEquals(2, a.member().permits("main", 2).heldHere());
    }
}
