package dev.laneway.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ManualTimeTest {

    @Test
    void manual_runsDueTasksInOrder_eachAtItsDueTime() {
        ManualTime time = new ManualTime();
        Instant start = time.instant();
        List<String> ran = new CopyOnWriteArrayList<>();
        time.schedule(Duration.ofSeconds(2), () -> ran.add("b at " + Duration.between(start, time.instant()).toSeconds()));
        time.schedule(Duration.ofSeconds(1), () -> ran.add("a at " + Duration.between(start, time.instant()).toSeconds()));
        time.schedule(Duration.ofSeconds(5), () -> ran.add("c"));
        time.advance(Duration.ofSeconds(3));
        assertEquals(List.of("a at 1", "b at 2"), ran);
        assertEquals(List.of(Duration.ofSeconds(5)), time.pendingDelays());
        assertEquals(1, time.pendingTasks());
    }

    @Test
    void running_letsTimeFlow_andAdvanceSkipsAhead() throws Exception {
        try (ManualTime time = ManualTime.running()) {
            CountDownLatch soon = new CountDownLatch(1);
            CountDownLatch late = new CountDownLatch(1);
            Instant start = time.instant();
            time.schedule(Duration.ofMillis(20), soon::countDown);
            time.schedule(Duration.ofMinutes(30), late::countDown);
            assertTrue(soon.await(10, TimeUnit.SECONDS), "a short timer simply passes");
            assertEquals(1, late.getCount());
            time.advance(Duration.ofMinutes(30));
            assertTrue(late.await(10, TimeUnit.SECONDS), "a long one is skipped to");
            assertTrue(!time.instant().isBefore(start.plus(Duration.ofMinutes(30))));
            Await.until("nothing pending", () -> time.pendingTasks() == 0);
        }
    }

    @Test
    void awaitPending_seesATaskAnotherThreadSchedules() {
        ManualTime time = new ManualTime();
        Thread.ofVirtual().start(() -> time.schedule(Duration.ofSeconds(7), () -> { }));
        time.awaitPending(Duration.ofSeconds(7));
        assertEquals(List.of(Duration.ofSeconds(7)), time.pendingDelays());
    }
}
