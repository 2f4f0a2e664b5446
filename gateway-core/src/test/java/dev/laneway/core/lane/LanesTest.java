package dev.laneway.core.lane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class LanesTest {

    private final ManualTime time = new ManualTime();
    private final Lanes lanes = new Lanes(Map.of("main", 2, "cron", 1), time, Duration.ofSeconds(2));

    @Test
    void aLaneGrantsUpToItsCap_thenQueuesInFifoOrder() {
        var first = lanes.acquire("main");
        var second = lanes.acquire("main");
        var third = lanes.acquire("main");
        var fourth = lanes.acquire("main");
        assertTrue(first.isDone() && second.isDone());
        assertFalse(third.isDone());
        assertEquals(new LaneSnapshot("main", 2, 2, 2), lanes.snapshot("main"));
        first.join().close();
        assertTrue(third.isDone());
        assertFalse(fourth.isDone());
        second.join().close();
        assertTrue(fourth.isDone());
    }

    @Test
    void closingAPermitTwice_givesBackOneSlot() {
        LanePermit permit = lanes.acquire("cron").join();
        var waiting = lanes.acquire("cron");
        var alsoWaiting = lanes.acquire("cron");
        permit.close();
        permit.close();
        assertTrue(waiting.isDone());
        assertFalse(alsoWaiting.isDone(), "a double close must not free a second slot");
    }

    @Test
    void aCancelledWaiter_isSkipped_andTheSlotGoesToTheNextOne() {
        LanePermit permit = lanes.acquire("cron").join();
        CompletableFuture<LanePermit> cancelled = lanes.acquire("cron");
        CompletableFuture<LanePermit> next = lanes.acquire("cron");
        cancelled.cancel(false);
        assertEquals(1, lanes.snapshot("cron").queued());
        permit.close();
        assertTrue(next.isDone());
        assertEquals(1, lanes.snapshot("cron").active());
    }

    @Test
    void aFailingHolder_neverPoisonsTheLane_whenItReleasesInFinally() {
        var waiting = lanes.acquire("cron");
        assertTrue(waiting.isDone());
        var after = lanes.acquire("cron");
        assertThrows(IllegalStateException.class, () -> {
            try (LanePermit permit = waiting.join()) {
                throw new IllegalStateException("task failed");
            }
        });
        assertTrue(after.isDone(), "the next entry starts");
    }

    @Test
    void unconfiguredLanes_haveCapOne_andDisappearWhenUnused() {
        int before = lanes.size();
        LanePermit permit = lanes.acquire("session:a").join();
        var second = lanes.acquire("session:a");
        assertFalse(second.isDone());
        assertEquals(before + 1, lanes.size());
        permit.close();
        second.join().close();
        assertEquals(before, lanes.size(), "idle session lanes cost nothing");
        assertTrue(lanes.acquire("session:a").isDone(), "and come back on demand");
    }

    @Test
    void capBelowOne_isRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> new Lanes(Map.of("main", 0), time, Duration.ofSeconds(2)));
    }
}
