package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The session lock (docs/decisions.md D94): exclusive across threads (virtual ones too), reentrant
 * for its holder, its check run before each release, and a step's effects run in order once it is
 * released, also when the step throws.
 */
class SessionLockTest {

    @Test
    void onlyOneThreadAtATimeHoldsItAndEveryStepRuns() throws Exception {
        SessionLock lock = new SessionLock(null);
        int[] counter = {0}; // guarded by lock: lost updates would show if two held it at once
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        int threads = 8;
        int steps = 20_000;
        CountDownLatch done = new CountDownLatch(threads);
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int t = 0; t < threads; t++) {
                executor.execute(() -> {
                    for (int i = 0; i < steps; i++) {
                        lock.locked(fx -> {
                            if (inside.incrementAndGet() != 1) {
                                overlaps.incrementAndGet();
                            }
                            counter[0]++;
                            if (counter[0] % 97 == 0) {
                                Thread.yield(); // a holder that gives up its carrier keeps the lock
                            }
                            inside.decrementAndGet();
                        });
                    }
                    done.countDown();
                });
            }
            assertTrue(done.await(60, TimeUnit.SECONDS));
        }
        assertEquals(0, overlaps.get(), "never two holders at once");
        assertEquals(threads * steps, lock.underLock(() -> counter[0]));
    }

    @Test
    void itsHolderMayTakeItAgainAndOthersSeeItHeld() throws Exception {
        SessionLock lock = new SessionLock(null);
        List<String> seen = new ArrayList<>();
        lock.locked(fx -> {
            assertTrue(lock.heldByCurrentThread());
            seen.add(lock.underLock(() -> "again")); // reentrant
            assertTrue(lock.heldByCurrentThread(), "still held after the inner step");
            boolean[] elsewhere = new boolean[2];
            Thread other = Thread.ofVirtual().start(() -> {
                elsewhere[0] = lock.heldByCurrentThread();
                elsewhere[1] = lock.tryAcquire(1);
            });
            try {
                other.join();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            assertFalse(elsewhere[0], "another thread does not hold it");
            assertFalse(elsewhere[1], "another thread cannot take it");
        });
        assertFalse(lock.heldByCurrentThread(), "released once the outer step is done");
        assertEquals(List.of("again"), seen);
        assertThrows(IllegalMonitorStateException.class, () -> lock.tryRelease(1), "only its holder releases it");
    }

    @Test
    void theCheckRunsUnderTheLockAndEffectsRunInOrderAfterItIsReleased() {
        List<String> events = new ArrayList<>();
        SessionLock[] self = new SessionLock[1];
        SessionLock lock = new SessionLock(() -> events.add("check held=" + self[0].heldByCurrentThread()));
        self[0] = lock;
        String result = lock.lockedGet(fx -> {
            fx.add(() -> events.add("first held=" + lock.heldByCurrentThread()));
            fx.add(() -> events.add("second"));
            events.add("step");
            return "done";
        });
        assertEquals("done", result);
        assertEquals(List.of("step", "check held=true", "first held=false", "second"), events);
        events.clear();
        assertThrows(IllegalStateException.class, () -> lock.locked(fx -> {
            fx.add(() -> events.add("effect"));
            throw new IllegalStateException("the step failed");
        }));
        assertEquals(List.of("effect"), events, "an effect collected before the failure still runs");
        assertFalse(lock.heldByCurrentThread());
    }

    @Test
    void manyEffectsRunInTheOrderAddedAlsoOnesAddedWhileTheyRunAndOneFailureStopsNoOther() {
        SessionLock lock = new SessionLock(null);
        List<Integer> ran = new ArrayList<>();
        lock.locked(fx -> {
            for (int i = 0; i < 20; i++) {
                int n = i;
                fx.add(() -> {
                    ran.add(n);
                    if (n == 3) {
                        throw new IllegalArgumentException("effect 3 fails");
                    }
                    if (n == 19) {
                        fx.add(() -> ran.add(20)); // added while the effects run: it runs too, last
                    }
                });
            }
        });
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i <= 20; i++) {
            expected.add(i);
        }
        assertEquals(expected, ran);
    }
}
