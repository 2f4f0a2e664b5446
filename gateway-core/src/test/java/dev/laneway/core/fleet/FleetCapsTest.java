package dev.laneway.core.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.fleet.FleetAllowanceTest.SharedCap;
import dev.laneway.core.lane.LanePermit;
import dev.laneway.core.scheduling.Claim;
import dev.laneway.core.scheduling.MainScheduler;
import dev.laneway.core.scheduling.PriorityClass;
import dev.laneway.core.scheduling.SchedulingObserver;
import dev.laneway.core.scheduling.SchedulingSettings;
import dev.laneway.core.scheduling.TenantLimits;
import dev.laneway.core.scheduling.Tenants;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Tenant running caps and the background share made fleet-wide (docs/behaviour.md §11, §17): two
 * instances' {@code main} schedulers gated with their caps by in-memory named semaphores (the Redis
 * ones are tested in store-redis). A tenant at its fleet cap on one instance is passed over on the
 * other while that instance's other tenants run, and no {@code main} permit is held idle for its
 * waiting run; a freed tenant permit reaches it at the next retry; idle tenants hold no permits.
 */
class FleetCapsTest {

    private static final Duration RETRY = Duration.ofMillis(250);
    private static final String HOT = "space:discord:hot";

    private final ManualTime time = new ManualTime();
    private final SharedCap main = new SharedCap(10);
    private final Map<String, SharedCap> named = new HashMap<>();
    private final FleetCaps caps = (name, cap) -> {
        synchronized (named) {
            SharedCap shared = named.computeIfAbsent(name, n -> new SharedCap(cap));
            return shared;
        }
    };

    private SharedCap cap(String name) {
        synchronized (named) {
            return named.getOrDefault(name, new SharedCap(1));
        }
    }

    /** A tenant {@code hot} with maxRunning 1 (others uncapped); background share 0.5. */
    private static SchedulingSettings settings() {
        return new SchedulingSettings(SchedulingSettings.Mode.FAIR, SchedulingSettings.DEFAULT_AGING_AFTER, 0.5,
                Map.of(), Tenants.Scope.SPACE, TenantLimits.DEFAULT, Map.of(HOT, new TenantLimits(1, 1, 0)), List.of(),
                SchedulingSettings.DEFAULT_INITIAL_RUN_TIME);
    }

    private MainScheduler instance(int localCap) {
        MainScheduler scheduler = new MainScheduler(settings(), localCap, time, Duration.ofMinutes(10),
                SchedulingObserver.NONE);
        FleetAllowance.gateWithCaps(scheduler, main, caps, Runnable::run, time, RETRY);
        return scheduler;
    }

    private static CompletableFuture<LanePermit> ask(MainScheduler scheduler, PriorityClass priority, String tenant,
                                                     String session) {
        Claim claim = new Claim(priority, tenant, session);
        LanePermit now = scheduler.acquireIfFree(claim);
        return now != null ? CompletableFuture.completedFuture(now) : scheduler.acquire(claim);
    }

    @Test
    void aTenantAtItsFleetCapOnA_isPassedOverOnB_whileBsOtherTenantsRun() {
        MainScheduler a = instance(4);
        MainScheduler b = instance(4);
        CompletableFuture<LanePermit> onA = ask(a, PriorityClass.NORMAL, HOT, "hot-1");
        assertTrue(onA.isDone(), "A's run of the hot tenant took its one fleet-wide slot");

        CompletableFuture<LanePermit> hotOnB = ask(b, PriorityClass.INTERACTIVE, HOT, "hot-2");
        CompletableFuture<LanePermit> otherOnB = ask(b, PriorityClass.NORMAL, "space:discord:quiet", "quiet-1");
        assertFalse(hotOnB.isDone(), "the tenant is at its fleet cap: B does not run it although B has room");
        assertTrue(otherOnB.isDone(), "B's other tenant runs: the capped tenant does not block the line");
        assertEquals(1, b.allowance(), "no main permit is held on B for the run its tenant's cap holds back");
        assertEquals(2, main.held());
        assertEquals(1, cap(MainScheduler.TENANT_CAP + HOT).most(), "never more than the tenant's cap at once");

        onA.join().close(); // the tenant's run on A ends: A gives the tenant permit back (nothing waits there)
        assertFalse(hotOnB.isDone(), "B is not told: it asks again at its next retry");
        time.advance(RETRY);
        assertTrue(hotOnB.isDone(), "the freed tenant permit reached B at the retry");
        assertEquals(1, cap(MainScheduler.TENANT_CAP + HOT).most());
        assertEquals(1, cap(MainScheduler.TENANT_CAP + HOT).held());
    }

    @Test
    void anIdleTenantHoldsNoPermits_andItsNextRunTakesOneAgain() {
        MainScheduler a = instance(4);
        LanePermit first = ask(a, PriorityClass.NORMAL, HOT, "hot-1").join();
        CompletableFuture<LanePermit> second = ask(a, PriorityClass.NORMAL, HOT, "hot-2");
        assertFalse(second.isDone(), "the tenant's own cap of 1, fleet-wide");
        first.close();
        assertTrue(second.isDone(), "handed over locally, on the same tenant permit");
        assertEquals(1, cap(MainScheduler.TENANT_CAP + HOT).held());
        second.join().close();
        assertEquals(0, cap(MainScheduler.TENANT_CAP + HOT).held(), "idle: the tenant's permit went back");
        assertEquals(0, main.held());
        assertTrue(ask(a, PriorityClass.NORMAL, HOT, "hot-3").isDone(), "its next run takes a permit again");
    }

    @Test
    void aTenantPermitLostBeforeItsRenewal_isDroppedHere_andTakenAgainForTheRunStillHoldingItsSlot() {
        MainScheduler a = instance(4);
        MainScheduler b = instance(4);
        LanePermit first = ask(a, PriorityClass.NORMAL, HOT, "hot-1").join();
        SharedCap tenant = cap(MainScheduler.TENANT_CAP + HOT);
        tenant.reportLost(tenant.expire(0)); // A could not renew it: the fleet counts it no more
        assertEquals(1, tenant.held(), "A counts its still-running run again with a new permit, not the lost one twice");
        assertEquals(1, a.capGate(MainScheduler.TENANT_CAP + HOT).allowance());
        CompletableFuture<LanePermit> onB = ask(b, PriorityClass.NORMAL, HOT, "hot-2");
        assertFalse(onB.isDone(), "the tenant's one fleet-wide slot is A's again");
        first.close();
        time.advance(RETRY);
        assertTrue(onB.isDone());
        assertEquals(1, tenant.most());
        assertEquals(0, a.capGate(MainScheduler.TENANT_CAP + HOT).allowance(), "A gave it back once idle");
    }

    @Test
    void theBackgroundShareCountsTheFleetsBackgroundRuns_whileOtherRunsWait() {
        MainScheduler a = instance(4); // share 0.5 of 4: 2 background slots fleet-wide while others wait
        MainScheduler b = instance(4);
        LanePermit job1 = ask(a, PriorityClass.BACKGROUND, "chat:telegram:1", "job-1").join();
        ask(a, PriorityClass.BACKGROUND, "chat:telegram:2", "job-2").join();
        assertEquals(2, cap(MainScheduler.BACKGROUND_CAP).held(), "A's background runs count against the share");

        LanePermit hotRun = ask(b, PriorityClass.NORMAL, HOT, "hot-1").join();
        CompletableFuture<LanePermit> hotWaits = ask(b, PriorityClass.NORMAL, HOT, "hot-2"); // waits on B
        CompletableFuture<LanePermit> jobOnB = ask(b, PriorityClass.BACKGROUND, "chat:telegram:3", "job-3");
        assertFalse(hotWaits.isDone());
        assertFalse(jobOnB.isDone(), "another run waits on B and the fleet's background share is in use on A");

        job1.close();
        time.advance(RETRY);
        assertTrue(jobOnB.isDone(), "A's background run ended: B takes its share's permit at the retry");
        assertEquals(2, cap(MainScheduler.BACKGROUND_CAP).most(), "never more than the share, fleet-wide");
        hotRun.close();
        assertTrue(hotWaits.isDone());
    }

    @Test
    void backgroundGoesBeyondTheShare_whenNobodyElseWaitsOnItsInstance() {
        MainScheduler a = instance(4);
        ask(a, PriorityClass.BACKGROUND, "chat:telegram:1", "job-1").join();
        ask(a, PriorityClass.BACKGROUND, "chat:telegram:2", "job-2").join();
        assertTrue(ask(a, PriorityClass.BACKGROUND, "chat:telegram:3", "job-3").isDone(),
                "nobody else waits: background may use every slot, as on one instance");
        assertEquals(2, cap(MainScheduler.BACKGROUND_CAP).held(), "the share's permits count up to the share only");
    }

    @Test
    void capsOfAnUnknownName_areRefused() {
        MainScheduler a = instance(4);
        assertThrows(IllegalArgumentException.class, () -> a.capGate("provider:x"));
        assertEquals(1, a.fleetCapOf(MainScheduler.TENANT_CAP + HOT));
        assertEquals(0, a.fleetCapOf(MainScheduler.TENANT_CAP + "space:discord:quiet"), "uncapped: not gated");
    }
}
