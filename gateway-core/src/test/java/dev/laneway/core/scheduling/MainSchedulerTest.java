package dev.laneway.core.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.lane.LanePermit;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class MainSchedulerTest {

    private final ManualTime time = new ManualTime();
    private final List<String> order = new ArrayList<>();

    private MainScheduler scheduler(SchedulingSettings settings, int cap) {
        return new MainScheduler(settings, cap, time, Duration.ofMinutes(10), SchedulingObserver.NONE);
    }

    private static Claim claim(PriorityClass priority, String tenant, String session) {
        return new Claim(priority, tenant, session);
    }

    private CompletableFuture<LanePermit> ask(MainScheduler scheduler, PriorityClass priority, String tenant, String session) {
        CompletableFuture<LanePermit> future = scheduler.acquire(claim(priority, tenant, session));
        future.thenRun(() -> order.add(session));
        return future;
    }

    @Test
    void aFreeSlotIsTakenAtOnceAndTheCapHolds() {
        MainScheduler main = scheduler(SchedulingSettings.defaults(), 2);
        LanePermit a = main.acquireIfFree(claim(PriorityClass.NORMAL, "t", "a"));
        LanePermit b = main.acquireIfFree(claim(PriorityClass.NORMAL, "t", "b"));
        assertNotNull(a);
        assertNotNull(b);
        assertNull(main.acquireIfFree(claim(PriorityClass.INTERACTIVE, "u", "c")));
        var c = ask(main, PriorityClass.INTERACTIVE, "u", "c");
        assertFalse(c.isDone());
        a.close();
        a.close(); // twice is harmless: one slot back, not two
        assertTrue(c.isDone());
        assertEquals(2, main.laneSnapshot().active());
        var d = ask(main, PriorityClass.INTERACTIVE, "u", "d");
        assertFalse(d.isDone());
    }

    @Test
    void aHigherClassGoesFirst() {
        MainScheduler main = scheduler(SchedulingSettings.defaults(), 1);
        LanePermit held = main.acquireIfFree(claim(PriorityClass.NORMAL, "x", "held"));
        ask(main, PriorityClass.BACKGROUND, "job", "bg");
        ask(main, PriorityClass.NORMAL, "guild", "group");
        ask(main, PriorityClass.INTERACTIVE, "user", "dm");
        held.close();
        assertEquals(List.of("dm"), order);
    }

    @Test
    void tenantsOfOneClassTakeTurnsByWeight() {
        var settings = new SchedulingSettings(SchedulingSettings.Mode.FAIR, Duration.ofMinutes(2), 0.5, Map.of(),
                Tenants.Scope.SPACE, TenantLimits.DEFAULT, Map.of("heavy", new TenantLimits(2, 0, 0)), List.of(),
                Duration.ofSeconds(5));
        MainScheduler main = scheduler(settings, 1);
        LanePermit held = main.acquireIfFree(claim(PriorityClass.NORMAL, "x", "held"));
        List<CompletableFuture<LanePermit>> asked = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            asked.add(ask(main, PriorityClass.NORMAL, "flood", "f" + i));
            asked.add(ask(main, PriorityClass.NORMAL, "heavy", "h" + i));
        }
        asked.add(ask(main, PriorityClass.NORMAL, "quiet", "q0"));
        held.close();
        for (int i = 0; i < 9; i++) {
            LanePermit next = asked.stream().filter(f -> f.isDone() && !f.isCancelled()).map(CompletableFuture::join)
                    .filter(p -> !closed.contains(p)).findFirst().orElseThrow();
            closed.add(next);
            next.close();
        }
        // the rotation: flood (weight 1), heavy (weight 2, twice), quiet, then flood, heavy, heavy, ...
        assertEquals(List.of("f0", "h0", "h1", "q0", "f1", "h2", "h3", "f2", "f3"), order);
    }

    private final List<LanePermit> closed = new ArrayList<>();

    @Test
    void aTenantAtItsRunningCapIsPassedOver() {
        var settings = new SchedulingSettings(SchedulingSettings.Mode.FAIR, Duration.ofMinutes(2), 0.5, Map.of(),
                Tenants.Scope.SPACE, TenantLimits.DEFAULT, Map.of("guild", new TenantLimits(1, 1, 0)), List.of(),
                Duration.ofSeconds(5));
        MainScheduler main = scheduler(settings, 3);
        assertNotNull(main.acquireIfFree(claim(PriorityClass.NORMAL, "guild", "g0")));
        var g1 = ask(main, PriorityClass.NORMAL, "guild", "g1");
        var other = ask(main, PriorityClass.NORMAL, "other", "o");
        assertFalse(g1.isDone(), "the guild is at its running cap of 1");
        assertTrue(other.isDone());
    }

    @Test
    void backgroundAgesIntoNormalAfterTheBoundAndTakesItsTurnThere() {
        MainScheduler main = scheduler(SchedulingSettings.defaults(), 1);
        LanePermit held = main.acquireIfFree(claim(PriorityClass.NORMAL, "x", "held"));
        var job = ask(main, PriorityClass.BACKGROUND, "job", "old-job");
        time.advance(SchedulingSettings.DEFAULT_AGING_AFTER);
        var g1 = ask(main, PriorityClass.NORMAL, "guild", "g1");
        var g2 = ask(main, PriorityClass.NORMAL, "guild", "g2");
        held.close();
        g1.join().close();
        // promoted to normal, the job takes its turn in the rotation before the guild's second run
        assertEquals(List.of("g1", "old-job"), order);
        job.join().close();
        assertTrue(g2.isDone());
    }

    @Test
    void backgroundThatHasNotAgedWaitsBehindNormal() {
        MainScheduler main = scheduler(SchedulingSettings.defaults(), 1);
        LanePermit held = main.acquireIfFree(claim(PriorityClass.NORMAL, "x", "held"));
        ask(main, PriorityClass.BACKGROUND, "job", "young-job");
        time.advance(SchedulingSettings.DEFAULT_AGING_AFTER.minusMillis(1));
        var g1 = ask(main, PriorityClass.NORMAL, "guild", "g1");
        var g2 = ask(main, PriorityClass.NORMAL, "guild", "g2");
        held.close();
        g1.join().close();
        g2.join().close();
        assertEquals(List.of("g1", "g2", "young-job"), order);
    }

    @Test
    void backgroundKeepsToItsShareWhileOthersWait() {
        var settings = new SchedulingSettings(SchedulingSettings.Mode.FAIR, Duration.ofMinutes(2), 0.5, Map.of(),
                Tenants.Scope.SPACE, TenantLimits.DEFAULT, Map.of("guild", new TenantLimits(1, 1, 0)), List.of(),
                Duration.ofSeconds(5));
        MainScheduler main = scheduler(settings, 4);
        // nobody else waits: background may use every slot
        for (int i = 0; i < 3; i++) {
            assertNotNull(main.acquireIfFree(claim(PriorityClass.BACKGROUND, "jobs", "j" + i)));
        }
        assertNotNull(main.acquireIfFree(claim(PriorityClass.NORMAL, "guild", "g0")));
        var g1 = ask(main, PriorityClass.NORMAL, "guild", "g1"); // waits: its tenant's cap
        var j3 = ask(main, PriorityClass.BACKGROUND, "jobs", "j3");
        assertFalse(g1.isDone());
        assertFalse(j3.isDone());
        assertEquals(3, main.snapshot().classes().get(PriorityClass.BACKGROUND).running());
    }

    @Test
    void aWithdrawnWaiter_letsTheBackgroundRunItHeldToItsShareTakeTheFreeSlot() {
        var settings = new SchedulingSettings(SchedulingSettings.Mode.FAIR, Duration.ofMinutes(2), 0.5, Map.of(),
                Tenants.Scope.SPACE, TenantLimits.DEFAULT, Map.of("guild", new TenantLimits(1, 1, 0)), List.of(),
                Duration.ofSeconds(5));
        MainScheduler main = scheduler(settings, 3); // the background share: 1 slot while others wait
        assertNotNull(main.acquireIfFree(claim(PriorityClass.BACKGROUND, "jobs", "j0")));
        assertNotNull(main.acquireIfFree(claim(PriorityClass.NORMAL, "guild", "g0")));
        var g1 = ask(main, PriorityClass.NORMAL, "guild", "g1"); // held back by its tenant's cap
        var j1 = ask(main, PriorityClass.BACKGROUND, "jobs", "j1"); // kept to the share: g1 waits
        assertFalse(j1.isDone(), "one slot is free, but background keeps to its share while others wait");
        g1.cancel(false);
        assertTrue(j1.isDone(), "nobody else waits now: the free slot goes to background at once");
        assertEquals(3, main.laneSnapshot().active());
    }

    @Test
    void fifoModeIsOneLineInArrivalOrder() {
        MainScheduler main = scheduler(SchedulingSettings.defaults().withMode(SchedulingSettings.Mode.FIFO), 1);
        LanePermit held = main.acquireIfFree(claim(PriorityClass.NORMAL, "x", "held"));
        var bg = ask(main, PriorityClass.BACKGROUND, "job", "bg");
        ask(main, PriorityClass.INTERACTIVE, "user", "dm");
        held.close();
        assertEquals(List.of("bg"), order);
        bg.join().close();
        assertEquals(List.of("bg", "dm"), order);
    }

    @Test
    void aCancelledRequestLeavesTheLine() {
        MainScheduler main = scheduler(SchedulingSettings.defaults(), 1);
        LanePermit held = main.acquireIfFree(claim(PriorityClass.NORMAL, "x", "held"));
        var gone = ask(main, PriorityClass.INTERACTIVE, "user", "gone");
        var next = ask(main, PriorityClass.NORMAL, "guild", "next");
        gone.cancel(false);
        assertEquals(1, main.laneSnapshot().queued());
        held.close();
        assertTrue(next.isDone());
        assertEquals(List.of("next"), order);
    }

    @Test
    void estimatesCountRunsAheadOverTheSlotsAtTheObservedRunTime() {
        MainScheduler main = scheduler(SchedulingSettings.defaults(), 2);
        assertEquals(Duration.ZERO, main.estimate(claim(PriorityClass.INTERACTIVE, "u", "s")).expected());
        LanePermit a = main.acquireIfFree(claim(PriorityClass.NORMAL, "g", "a"));
        LanePermit b = main.acquireIfFree(claim(PriorityClass.NORMAL, "g", "b"));
        time.advance(Duration.ofSeconds(13)); // two runs of 13 s: the mean moves from 5 s toward 13 s
        a.close();
        b.close();
        long mean = main.meanRunTime().toMillis();
        assertEquals(5_000 + (13_000 - 5_000) / 8 + (13_000 - (5_000 + (13_000 - 5_000) / 8)) / 8, mean);
        main.acquireIfFree(claim(PriorityClass.NORMAL, "g", "c"));
        main.acquireIfFree(claim(PriorityClass.NORMAL, "g", "d"));
        ask(main, PriorityClass.NORMAL, "g", "e");
        ask(main, PriorityClass.INTERACTIVE, "u1", "f");
        ask(main, PriorityClass.INTERACTIVE, "u2", "g");
        // a new interactive run: two interactive ahead (the normal one is served after it), no free slot
        WaitEstimate dm = main.estimate(claim(PriorityClass.INTERACTIVE, "u3", "h"));
        assertEquals(2, dm.ahead());
        assertEquals(3, dm.position());
        assertEquals(Duration.ofMillis(3 * mean / 2), dm.expected());
        // the waiting normal run of session e: both interactive runs are ahead of it
        assertEquals(2, main.waitingRun("e").orElseThrow().ahead());
        assertTrue(main.waitingRun("c").isEmpty(), "c holds a slot");
    }

    @Test
    void aTenantAtItsPendingCapMayNotWaitMore() {
        var settings = new SchedulingSettings(SchedulingSettings.Mode.FAIR, Duration.ofMinutes(2), 0.5, Map.of(),
                Tenants.Scope.SPACE, new TenantLimits(1, 0, 1), Map.of(), List.of(), Duration.ofSeconds(5));
        MainScheduler main = scheduler(settings, 1);
        main.acquireIfFree(claim(PriorityClass.NORMAL, "g", "a"));
        assertTrue(main.mayWait(claim(PriorityClass.NORMAL, "g", "b")));
        ask(main, PriorityClass.NORMAL, "g", "b");
        assertFalse(main.mayWait(claim(PriorityClass.NORMAL, "g", "c")));
        assertTrue(main.mayWait(claim(PriorityClass.NORMAL, "h", "c")));
    }

    @Test
    void tenantsThatComeAndGoAreKeptBoundedAndIdleOnesAreNotShown() {
        MainScheduler main = scheduler(SchedulingSettings.defaults(), 2);
        for (int i = 0; i < 10_000; i++) {
            main.acquireIfFree(claim(PriorityClass.INTERACTIVE, "user:" + i, "s" + i)).close();
            assertTrue(main.trackedTenants() <= 2 * 1024 + 1, "tenants kept: " + main.trackedTenants());
        }
        LanePermit held = main.acquireIfFree(claim(PriorityClass.NORMAL, "busy", "b"));
        assertEquals(List.of(new SchedulerSnapshot.TenantLoad("busy", 1, 0)), main.snapshot().tenants());
        held.close();
        assertEquals(List.of(), main.snapshot().tenants());
    }
}
