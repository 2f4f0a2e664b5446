package dev.laneway.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.fleet.FleetAllowance;
import dev.laneway.core.fleet.FleetCaps;
import dev.laneway.core.fleet.FleetPermitSource;
import dev.laneway.core.lane.LanePermit;
import dev.laneway.core.scheduling.Claim;
import dev.laneway.core.scheduling.MainScheduler;
import dev.laneway.core.scheduling.PriorityClass;
import dev.laneway.core.scheduling.SchedulingObserver;
import dev.laneway.core.scheduling.SchedulingSettings;
import dev.laneway.core.scheduling.TenantLimits;
import dev.laneway.core.scheduling.Tenants;
import dev.laneway.core.testing.Await;
import dev.laneway.store.redis.FleetMembers.Member;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * The fleet's named caps on a real Redis (docs/behaviour.md §11, §17; docs/architecture.md §7.1):
 * a tenant at its fleet-wide running cap on one instance is passed over on the other while that
 * instance's other tenants run; a dead instance's tenant and provider permits come back after the
 * ttl; an idle cap's permits object is retired at the beat.
 */
class FleetCapsTest {

    private static final Duration RETRY = Duration.ofMillis(250);
    private static final String HOT = "space:discord:hot";

    private final RedisServer server = RedisServer.shared();
    private final FleetMembers fleet = FleetMembers.on(server);

    @AfterEach
    void closeAll() throws Exception {
        fleet.close();
    }

    private Member instance(FleetTiming timing) {
        return fleet.join(timing);
    }

    /** {@code main} of one instance, fleet-wide with its caps; tenant {@code hot} may run one at a time. */
    private static MainScheduler gatedMain(Member instance) {
        SchedulingSettings settings = new SchedulingSettings(SchedulingSettings.Mode.FAIR,
                SchedulingSettings.DEFAULT_AGING_AFTER, 0.5, Map.of(), Tenants.Scope.SPACE, TenantLimits.DEFAULT,
                Map.of(HOT, new TenantLimits(1, 1, 0)), List.of(), SchedulingSettings.DEFAULT_INITIAL_RUN_TIME);
        MainScheduler main = new MainScheduler(settings, 8, instance.clock(), Duration.ofMinutes(1),
                SchedulingObserver.NONE);
        FleetAllowance.gateWithCaps(main, instance.member().permits("main", 8).source(), instance.member().caps(),
                Runnable::run, instance.clock(), RETRY);
        return main;
    }

    private static CompletableFuture<LanePermit> ask(MainScheduler main, String tenant, String session) {
        return main.acquire(new Claim(PriorityClass.NORMAL, tenant, session));
    }

    private long inUse(String cap) {
        try (Jedis redis = server.client()) {
            return redis.zcard(FleetMembers.keys().permits(cap));
        }
    }

    @Test
    void aTenantAtItsFleetCapOnA_waitsOnB_whileBsOtherTenantsRun_andGetsTheFreedPermitAtTheRetry() {
        Member a = instance(FleetTiming.DEFAULTS);
        Member b = instance(FleetTiming.DEFAULTS);
        MainScheduler mainA = gatedMain(a);
        MainScheduler mainB = gatedMain(b);

        CompletableFuture<LanePermit> onA = ask(mainA, HOT, "hot-1");
        assertTrue(onA.isDone());
        CompletableFuture<LanePermit> hotOnB = ask(mainB, HOT, "hot-2");
        CompletableFuture<LanePermit> quietOnB = ask(mainB, "space:discord:quiet", "quiet-1");
        assertFalse(hotOnB.isDone(), "the tenant runs on A: B does not start its next run");
        assertTrue(quietOnB.isDone(), "B's other tenant runs meanwhile");
        assertEquals(1, inUse("tenant:" + HOT));
        assertEquals(2, inUse("main"), "no main permit held for the run the tenant's cap holds back");

        onA.join().close();
        assertEquals(0, inUse("tenant:" + HOT), "A gave the tenant's permit back to Redis");
        b.clock().advance(RETRY);
        assertTrue(hotOnB.isDone(), "B took it at its retry");
        assertEquals(1, inUse("tenant:" + HOT));
        assertEquals(1, b.member().permitsHeld("tenant:" + HOT));
    }

    @Test
    void aDeadInstancesTenantPermit_comesBackAfterTheTtl() {
        Member dead = instance(FleetTiming.of(Duration.ofMillis(300)));
        Member alive = instance(FleetTiming.DEFAULTS);
        MainScheduler mainDead = gatedMain(dead);
        MainScheduler mainAlive = gatedMain(alive);
        assertTrue(ask(mainDead, HOT, "hot-1").isDone());
        CompletableFuture<LanePermit> waiting = ask(mainAlive, HOT, "hot-2");
        assertFalse(waiting.isDone());

        // the dead instance never beats again (its clock stands still): Redis's clock runs its permits out
        Await.until("the dead instance's tenant permit reaches the waiting run", () -> {
            alive.clock().advance(RETRY);
            return waiting.isDone();
        });
        assertEquals(1, inUse("tenant:" + HOT));
    }

    @Test
    void aDeadInstancesProviderPermits_comeBackAfterTheTtl() {
        Member dead = instance(FleetTiming.of(Duration.ofMillis(300)));
        Member alive = instance(FleetTiming.DEFAULTS);
        FleetPermitSource deadPool = dead.member().caps().permits("provider:hosted", 2);
        FleetPermitSource alivePool = alive.member().caps().permits("provider:hosted", 2);
        assertNotNull(deadPool.tryAcquire());
        assertNotNull(deadPool.tryAcquire());
        assertNull(alivePool.tryAcquire(), "two of two calls in flight in the fleet");

        Await.until("a dead instance's provider permit is free again", () -> alivePool.tryAcquire() != null);
        Await.until("both came back", () -> alivePool.tryAcquire() != null);
        assertEquals(2, inUse("provider:hosted"));
    }

    @Test
    void anIdleCapsPermits_areRetiredAtTheBeat_andTakenAgainOnTheNextAsk() {
        FleetTiming timing = new FleetTiming(Duration.ofSeconds(30), Duration.ofSeconds(10));
        Member a = instance(timing);
        FleetCaps caps = a.member().caps();
        FleetPermitSource tenant = caps.permits("tenant:" + HOT, 1);
        FleetPermitSource.Permit permit = tenant.tryAcquire();
        assertNotNull(permit);
        a.clock().advance(timing.renewEvery());
        assertTrue(a.member().keepsPermits("tenant:" + HOT), "held: renewed and kept");

        permit.release();
        a.clock().advance(timing.renewEvery());
        assertFalse(a.member().keepsPermits("tenant:" + HOT), "idle: retired, so idle tenants cost nothing");

        FleetPermitSource.Permit again = tenant.tryAcquire();
        assertNotNull(again, "the same source takes a permit again after its object was retired");
        a.clock().advance(timing.renewEvery());
        assertEquals(1, inUse("tenant:" + HOT), "and the new object's permit is renewed by the beat");
        assertEquals(1, a.member().permitsHeld("tenant:" + HOT));
    }
}
