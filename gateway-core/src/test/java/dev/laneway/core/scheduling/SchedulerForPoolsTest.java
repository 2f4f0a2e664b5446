package dev.laneway.core.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.lane.LanePermit;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** What a provider pool adds to the scheduler (docs/behaviour.md §12): a changing cap, pauses, asking at the head. */
class SchedulerForPoolsTest {

    private final ManualTime time = new ManualTime();
    private final List<String> order = new ArrayList<>();
    private final MainScheduler pool = new MainScheduler("provider:hosted", SchedulingSettings.defaults(), 1, time,
            Duration.ofMinutes(10), SchedulingObserver.NONE);

    private CompletableFuture<LanePermit> ask(PriorityClass priority, String tenant, String session, boolean first) {
        Claim claim = new Claim(priority, tenant, session);
        CompletableFuture<LanePermit> future = first ? pool.acquireFirst(claim) : pool.acquire(claim);
        future.thenRun(() -> order.add(session));
        return future;
    }

    @Test
    void permitsCarryThePoolsName() {
        LanePermit permit = pool.acquireIfFree(new Claim(PriorityClass.NORMAL, "t", "s"));
        assertEquals("provider:hosted", permit.lane());
        assertEquals("provider:hosted", pool.laneSnapshot().name());
    }

    @Test
    void aRunAskingAgainAtTheHead_goesBeforeEveryWaiterOfItsClass_butNotBeforeAHigherClass() {
        LanePermit held = pool.acquireIfFree(new Claim(PriorityClass.NORMAL, "x", "held"));
        List<CompletableFuture<LanePermit>> asked = new ArrayList<>(List.of(
                ask(PriorityClass.NORMAL, "a", "a1", false),
                ask(PriorityClass.NORMAL, "b", "b1", false),
                ask(PriorityClass.NORMAL, "b", "b2", false),
                ask(PriorityClass.INTERACTIVE, "c", "c1", false),
                ask(PriorityClass.NORMAL, "b", "again", true))); // b's run that got a 429: ahead of a1, b1
        held.close();
        while (order.size() < asked.size()) {
            asked.stream().filter(CompletableFuture::isDone).map(CompletableFuture::join).forEach(LanePermit::close);
        }
        assertEquals(List.of("c1", "again", "a1", "b1", "b2"), order); // then b has had its turn: a goes next
    }

    @Test
    void aPause_holdsEveryGrantUntilItsEnd_andTheLongerOfTwoPausesWins() {
        pool.setCap(3);
        LanePermit first = pool.acquireIfFree(new Claim(PriorityClass.NORMAL, "t", "s0"));
        assertTrue(pool.pauseUntil(time.instant().plusSeconds(5)));
        assertFalse(pool.pauseUntil(time.instant().plusSeconds(2)), "a shorter pause changes nothing");
        assertTrue(pool.pauseUntil(time.instant().plusSeconds(7)));
        assertNull(pool.acquireIfFree(new Claim(PriorityClass.NORMAL, "t", "s1")), "no slot at once during a pause");
        assertFalse(pool.freeNow());
        CompletableFuture<LanePermit> waiting = ask(PriorityClass.INTERACTIVE, "u", "s2", false);
        assertEquals(Duration.ofSeconds(7), pool.waitingRun("s2").orElseThrow().expected(), "the estimate counts the pause");
        first.close();
        time.advance(Duration.ofSeconds(6));
        pool.resume(); // early: nothing yet
        assertFalse(waiting.isDone());
        assertEquals(Optional.of(time.instant().plusSeconds(1)), pool.pausedUntil());
        time.advance(Duration.ofSeconds(1));
        pool.resume();
        assertTrue(waiting.isDone());
        assertEquals(Optional.empty(), pool.pausedUntil());
    }

    @Test
    void aHigherCap_grantsWaitersAtOnce_aLowerOneTakesNothingBack() {
        LanePermit a = pool.acquireIfFree(new Claim(PriorityClass.NORMAL, "t", "a"));
        CompletableFuture<LanePermit> b = ask(PriorityClass.NORMAL, "t", "b", false);
        CompletableFuture<LanePermit> c = ask(PriorityClass.NORMAL, "t", "c", false);
        CompletableFuture<LanePermit> d = ask(PriorityClass.NORMAL, "t", "d", false);
        pool.setCap(3);
        assertTrue(b.isDone() && c.isDone());
        assertFalse(d.isDone());
        pool.setCap(1);
        assertEquals(3, pool.snapshot().running(), "held slots stay held");
        a.close();
        b.join().close();
        assertFalse(d.isDone(), "still one held, at the cap of 1");
        c.join().close();
        assertTrue(d.isDone());
        assertEquals(1, pool.cap());
    }
}
