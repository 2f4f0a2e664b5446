package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.testing.ManualTime;
import dev.laneway.core.time.Scheduler.Cancellable;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The run deadlines share one timer: each deadline still fires at its own time, in due order, a
 * cancelled one never fires, and no timer is left once none waits; cancelled entries do not pile up
 * behind a long one.
 */
class RunDeadlinesTest {

    private final ManualTime time = new ManualTime();
    private final RunDeadlines deadlines = new RunDeadlines(time, time);
    private final List<String> fired = new ArrayList<>();

    @Test
    void manyDeadlinesShareOneTimer_eachFiresAtItsOwnTime() {
        deadlines.add(Duration.ofMinutes(5), () -> fired.add("a"));
        time.advance(Duration.ofSeconds(10));
        deadlines.add(Duration.ofMinutes(5), () -> fired.add("b"));
        deadlines.add(Duration.ofMinutes(5), () -> fired.add("c"));
        assertEquals(1, time.pendingTasks(), "one timer for every deadline, not one per run");
        assertEquals(List.of(Duration.ofMinutes(5)), time.pendingDelays(), "set to the run timeout, exactly");

        time.advance(Duration.ofMinutes(5).minusSeconds(10).minusMillis(1));
        assertEquals(List.of(), fired);
        time.advanceMillis(1);
        assertEquals(List.of("a"), fired);
        time.advance(Duration.ofSeconds(10).minusMillis(1));
        assertEquals(List.of("a"), fired);
        time.advanceMillis(1);
        assertEquals(List.of("a", "b", "c"), fired, "deadlines due at the same time fire in the order they were added");
        assertEquals(0, time.pendingTasks(), "no timer left once none waits");
        assertEquals(0, deadlines.size());
    }

    @Test
    void aShorterDeadlineAddedLaterFiresFirst() {
        deadlines.add(Duration.ofMinutes(5), () -> fired.add("long"));
        deadlines.add(Duration.ofSeconds(90), () -> fired.add("short"));
        time.advance(Duration.ofSeconds(90));
        assertEquals(List.of("short"), fired);
        time.advance(Duration.ofMinutes(5).minusSeconds(90));
        assertEquals(List.of("short", "long"), fired);
        assertEquals(0, time.pendingTasks());
    }

    @Test
    void aCancelledDeadlineNeverFires_andTheLastCancelLeavesNoTimer() {
        Cancellable a = deadlines.add(Duration.ofMinutes(5), () -> fired.add("a"));
        time.advance(Duration.ofSeconds(1));
        Cancellable b = deadlines.add(Duration.ofMinutes(5), () -> fired.add("b"));
        a.cancel();
        a.cancel(); // idempotent
        time.advance(Duration.ofMinutes(5));
        assertEquals(List.of("b"), fired, "the timer set for the cancelled head fired, found nothing due, and waited for the next");
        b.cancel(); // after it fired: harmless
        Cancellable c = deadlines.add(Duration.ofMinutes(5), () -> fired.add("c"));
        c.cancel();
        assertEquals(0, time.pendingTasks(), "no timer outlives the last deadline");
        time.advance(Duration.ofMinutes(10));
        assertEquals(List.of("b"), fired);
    }

    @Test
    void theSchedulerDecidesWhenADeadlineHasCome_evenWithAFixedClock() {
        RunDeadlines fixedClock = new RunDeadlines(InstantSource.fixed(Instant.parse("2026-01-01T00:00:00Z")), time);
        fixedClock.add(Duration.ofMinutes(5), () -> fired.add("a"));
        time.advance(Duration.ofMinutes(5).minusMillis(1));
        assertEquals(List.of(), fired);
        time.advanceMillis(1);
        assertEquals(List.of("a"), fired, "fired when its timer did, though the clock never moved");
        assertEquals(0, time.pendingTasks());
    }

    @Test
    void cancelledDeadlinesBehindALongOne_areSweptOut_soTheListStaysSmall_andNoneOfThemFires() {
        deadlines.add(Duration.ofMinutes(5), () -> fired.add("stuck"));
        for (int i = 0; i < 10_000; i++) {
            deadlines.add(Duration.ofMinutes(10), () -> fired.add("ended")).cancel();
            deadlines.add(Duration.ofMinutes(10), () -> fired.add("ended")).cancel();
        }
        assertEquals(1, deadlines.size());
        assertTrue(deadlines.linked() <= 2 * 64 + 2, "cancelled entries are swept out: " + deadlines.linked());
        time.advance(Duration.ofMinutes(10));
        assertEquals(List.of("stuck"), fired);
        assertEquals(0, time.pendingTasks());
        assertEquals(0, deadlines.linked());
    }

    @Test
    void deadlinesAddedAndCancelledFromManyThreads_eachLiveOneFiresOnce_andNoTimerIsLeft() throws Exception {
        int threads = 4;
        int perThread = 5_000;
        java.util.concurrent.atomic.AtomicInteger firedCount = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger kept = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int seed = t;
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < perThread; i++) {
                    // a few timeouts, some shorter than those already waiting, so some adds set the timer
                    Duration timeout = Duration.ofSeconds(30 + (i + seed) % 7 * 10);
                    Cancellable handle = deadlines.add(timeout, firedCount::incrementAndGet);
                    if ((i + seed) % 3 != 0) {
                        handle.cancel();
                    } else {
                        kept.incrementAndGet();
                    }
                }
            });
            workers.add(worker);
            worker.start();
        }
        start.countDown();
        for (Thread worker : workers) {
            worker.join();
        }
        assertEquals(kept.get(), deadlines.size());
        assertTrue(deadlines.linked() <= 4 * kept.get() + 2 * 64, "cancelled entries do not pile up: " + deadlines.linked());
        time.advance(Duration.ofSeconds(29));
        assertEquals(0, firedCount.get(), "none is due before its timeout");
        time.advance(Duration.ofMinutes(2));
        assertEquals(kept.get(), firedCount.get(), "every deadline not cancelled fired, once");
        assertEquals(0, deadlines.size());
        assertEquals(0, time.pendingTasks(), "no timer left once none waits");
        assertEquals(0, deadlines.linked());
    }

    @Test
    void deadlinesAddedAndCancelledFromManyVirtualThreads_leaveNoTimer_andNoneFires() throws Exception {
        int threads = 8;
        int perThread = 20_000;
        java.util.concurrent.atomic.AtomicInteger firedCount = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int seed = t;
            workers.add(Thread.ofVirtual().start(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < perThread; i++) {
                    // the live count drops to zero and rises again all the time: each last cancel
                    // races with the next adds for the timer (D241 keeps the count beside the stack)
                    Cancellable handle = deadlines.add(Duration.ofSeconds(30 + (i + seed) % 5), firedCount::incrementAndGet);
                    if (i % 64 == seed) {
                        Thread.yield();
                    }
                    handle.cancel();
                }
            }));
        }
        start.countDown();
        for (Thread worker : workers) {
            worker.join();
        }
        assertEquals(0, deadlines.size());
        assertEquals(0, time.pendingTasks(), "no timer outlives the last deadline, however the cancels raced the adds");
        assertEquals(0, deadlines.linked(), "the last cancel came after every push, and emptied the stack and the list");
        time.advance(Duration.ofMinutes(10));
        assertEquals(0, firedCount.get(), "a cancelled deadline never fires");
    }
}
