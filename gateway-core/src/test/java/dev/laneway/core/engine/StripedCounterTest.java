package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * The striped counts (docs/decisions.md D240): exact once the adds are done, from many threads,
 * whichever cells the hints name; hints spread over the cells.
 */
class StripedCounterTest {

    @Test
    void cellsAreAPowerOfTwo_twiceTheProcessors_atMost64() {
        assertEquals(4, StripedCounter.cellsFor(2));
        assertEquals(2, StripedCounter.cellsFor(1));
        assertEquals(64, StripedCounter.cellsFor(256));
        assertEquals(8, new StripedCounter(5).cellCount());
        assertEquals(1, new StripedCounter(1).cellCount());
        assertEquals(64, new StripedCounter(1000).cellCount());
    }

    @Test
    void consecutiveHints_spreadOverEveryCell_andEachCountsOnTheCellItNames() {
        StripedCounter counter = new StripedCounter(8);
        Set<Integer> used = new HashSet<>();
        for (int hint = 0; hint < 16; hint++) {
            used.add(counter.cellOf(hint));
        }
        assertEquals(8, used.size(), "sixteen consecutive sequence numbers use all eight cells: " + used);
        counter.add(5, 10);
        counter.increment(5);
        counter.decrement(6);
        assertEquals(11, counter.cellValue(counter.cellOf(5)));
        assertEquals(-1, counter.cellValue(counter.cellOf(6)));
        assertEquals(10, counter.sum());
    }

    @Test
    void countsUpAndDownFromManyThreads_areExact_whateverCellsTheyUse() throws Exception {
        StripedCounter counter = new StripedCounter(4);
        int threads = 4;
        int perThread = 200_000;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int seed = t;
            workers.add(Thread.ofPlatform().start(() -> {
                await(start);
                for (int i = 0; i < perThread; i++) {
                    int hint = i * threads + seed;
                    counter.increment(hint);
                    if (i % 3 != 0) {
                        counter.decrement(hint * 31 + 7); // given back on another cell, mostly
                    }
                }
            }));
        }
        start.countDown();
        for (Thread worker : workers) {
            worker.join();
        }
        long kept = (long) threads * ((perThread + 2) / 3);
        assertEquals(kept, counter.sum());
    }

    @Test
    void anAdmissionWithoutACap_countsEveryMessageFromManyThreads_exactly() throws Exception {
        Admission admission = new Admission(0, 4);
        int threads = 4;
        int perThread = 100_000;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int seed = t;
            workers.add(Thread.ofVirtual().start(() -> {
                await(start);
                for (int i = 0; i < perThread; i++) {
                    assertTrue(admission.tryAdmit(("session" + (i % 97)).hashCode()));
                    admission.release(i * threads + seed);
                    if (i % 10 == 0) {
                        admission.admitRestored(i);
                    }
                }
            }));
        }
        start.countDown();
        for (Thread worker : workers) {
            worker.join();
        }
        assertEquals(threads * (perThread / 10), admission.pending());
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
