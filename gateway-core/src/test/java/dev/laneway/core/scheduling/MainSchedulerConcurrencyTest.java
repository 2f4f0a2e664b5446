package dev.laneway.core.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.lane.LanePermit;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The scheduler's lock-free common case (docs/decisions.md D236) under real threads: slots are taken
 * and given back without the lock while others queue, tenants come and go and are swept (also while
 * sessions' claims remember them), and a tenant with a running cap is granted under the lock.
 * Whatever the interleaving, never more than the cap (nor a capped tenant's own cap) hold a slot at
 * once, every waiter is served, and once all is given back the counts are zero again.
 */
class MainSchedulerConcurrencyTest {

    private static final int THREADS = 4;
    private static final int ROUNDS = 20_000;

    @Test
    void slotsTakenAndGivenBackWithoutTheLockNeverExceedTheCapsAndNoWaiterIsLost() throws Exception {
        int cap = 3;
        TenantLimits capped = new TenantLimits(1, 1, 0);
        var settings = new SchedulingSettings(SchedulingSettings.Mode.FAIR, Duration.ofMinutes(2), 0.5, Map.of(),
                Tenants.Scope.SPACE, TenantLimits.DEFAULT, Map.of("capped", capped), List.of(), Duration.ofSeconds(5));
        MainScheduler main = new MainScheduler(settings, cap, new ManualTime(), Duration.ofMinutes(1),
                SchedulingObserver.NONE);
        AtomicInteger held = new AtomicInteger();
        AtomicInteger heldByCapped = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        AtomicInteger cappedPeak = new AtomicInteger();
        AtomicInteger served = new AtomicInteger();
        onThreads("", (thread, i) -> {
            // many tenants that come and go (swept once the map has grown), one capped tenant
            String tenant = i % 7 == 0 ? "capped" : "user:" + thread + ":" + (i % 3000);
            Claim claim = new Claim(PriorityClass.values()[i % PriorityClass.COUNT], tenant, "s" + thread + ":" + i);
            LanePermit permit = main.acquireIfFree(claim);
            if (permit == null) {
                CompletableFuture<LanePermit> wait = main.acquire(claim);
                if (i % 11 == 0 && wait.cancel(false)) {
                    return; // withdrawn before its turn
                }
                permit = wait.get(30, TimeUnit.SECONDS);
            }
            peak.accumulateAndGet(held.incrementAndGet(), Math::max);
            if (tenant.equals("capped")) {
                cappedPeak.accumulateAndGet(heldByCapped.incrementAndGet(), Math::max);
                heldByCapped.decrementAndGet();
            }
            served.incrementAndGet();
            for (int spin = 0; spin < 50; spin++) {
                Thread.onSpinWait(); // holds the slot a moment, so others find none free
            }
            held.decrementAndGet();
            permit.close();
            permit.close(); // a second close gives nothing back
        });
        assertTrue(peak.get() <= cap, "never more than the cap held: " + peak.get());
        assertEquals(1, cappedPeak.get(), "the capped tenant never held more than its own cap");
        assertTrue(served.get() > ROUNDS, "runs were served: " + served.get());
        assertEverythingGivenBack(main);
        assertTrue(main.trackedTenants() <= 2 * Math.max(1024, THREADS * 3000) + THREADS,
                "idle tenants are swept: " + main.trackedTenants());
        // the scheduler still grants and queues as before
        LanePermit a = main.acquireIfFree(new Claim(PriorityClass.NORMAL, "x", "a"));
        LanePermit b = main.acquireIfFree(new Claim(PriorityClass.NORMAL, "x", "b"));
        LanePermit c = main.acquireIfFree(new Claim(PriorityClass.NORMAL, "x", "c"));
        assertTrue(a != null && b != null && c != null, "three free slots");
        assertEquals(null, main.acquireIfFree(new Claim(PriorityClass.NORMAL, "y", "d")));
        CompletableFuture<LanePermit> d = main.acquire(new Claim(PriorityClass.NORMAL, "y", "d"));
        assertEquals(null, main.acquireIfFree(new Claim(PriorityClass.NORMAL, "z", "e")), "a waiter goes first");
        a.close();
        assertTrue(d.isDone(), "the freed slot went to the waiter");
        assertEquals(3, main.snapshot().running());
    }

    @Test
    void reusedClaimsWithAndWithoutWaitersWhileTenantsAreSweptAndTimePasses() throws Exception {
        for (int cap : new int[] {2, 1000}) { // 2: runs queue all the time; 1000: nobody ever waits
            ManualTime time = new ManualTime();
            MainScheduler main = new MainScheduler(SchedulingSettings.defaults(), cap, time, Duration.ofMinutes(1),
                    SchedulingObserver.NONE);
            AtomicInteger held = new AtomicInteger();
            AtomicInteger peak = new AtomicInteger();
            AtomicInteger served = new AtomicInteger();
            AtomicInteger queued = new AtomicInteger();
            // each thread's sessions keep their claims (D218), 800 tenants each: past the sweep bound
            Claim[][] claims = new Claim[THREADS][800];
            for (int t = 0; t < THREADS; t++) {
                for (int k = 0; k < claims[t].length; k++) {
                    claims[t][k] = new Claim(PriorityClass.values()[k % PriorityClass.COUNT], "user:" + t + ":" + k,
                            "s" + t + ":" + k);
                }
            }
            onThreads(" (cap " + cap + ")", (thread, i) -> {
                Claim claim = claims[thread][i % claims[thread].length];
                if (thread == 0 && i % 200 == 0) {
                    time.advance(Duration.ofSeconds(30)); // returning tenants expire and are swept
                }
                LanePermit permit = i % 13 == 0 ? null : main.acquireIfFree(claim);
                if (permit == null) {
                    queued.incrementAndGet();
                    permit = main.acquire(claim).get(30, TimeUnit.SECONDS); // a waiter left behind fails here
                }
                peak.accumulateAndGet(held.incrementAndGet(), Math::max);
                served.incrementAndGet();
                for (int spin = 0; spin < 20; spin++) {
                    Thread.onSpinWait();
                }
                held.decrementAndGet();
                permit.close();
            });
            assertTrue(peak.get() <= cap, "never more than the cap held: " + peak.get());
            assertEquals(THREADS * ROUNDS, served.get(), "every run was served");
            assertTrue(queued.get() > 0, "runs queued");
            assertEverythingGivenBack(main);
            for (int k = 0; k < cap; k++) { // every slot is free again, and granted without a wait
                assertTrue(main.freeNow());
                assertTrue(main.acquireIfFree(new Claim(PriorityClass.NORMAL, "end", "e" + k)) != null);
            }
            assertEquals(List.of(new SchedulerSnapshot.TenantLoad("end", cap, 0)), main.snapshot().tenants());
        }
    }

    @Test
    void aTenantSweptWhileARunTakesItsSlotIsLookedUpAgain() {
        MainScheduler main = new MainScheduler(SchedulingSettings.defaults(), Integer.MAX_VALUE, new ManualTime(),
                Duration.ofMinutes(1), SchedulingObserver.NONE);
        // grow the map past the sweep bound with tenants that each held a slot once
        for (int i = 0; i < 5000; i++) {
            main.acquireIfFree(new Claim(PriorityClass.INTERACTIVE, "user:" + i, "s" + i)).close();
        }
        // a tenant holding a slot is never swept, and its count stays right across sweeps
        LanePermit kept = main.acquireIfFree(new Claim(PriorityClass.INTERACTIVE, "user:keep", "k"));
        for (int i = 5000; i < 12_000; i++) {
            main.acquireIfFree(new Claim(PriorityClass.INTERACTIVE, "user:" + i, "s" + i)).close();
        }
        assertEquals(List.of(new SchedulerSnapshot.TenantLoad("user:keep", 1, 0)), main.snapshot().tenants());
        kept.close();
        assertTrue(main.snapshot().tenants().isEmpty());
        assertEquals(0, main.snapshot().running());
    }

    /** One round of a worker thread: {@code thread} is its index, {@code round} the round's. */
    @FunctionalInterface
    private interface Round {
        void run(int thread, int round) throws Exception;
    }

    /** Runs {@link #ROUNDS} rounds on each of {@link #THREADS} platform threads; the first failure fails the test. */
    private static void onThreads(String what, Round round) throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(THREADS);
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 0; i < ROUNDS; i++) {
                        round.run(thread, i);
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                } finally {
                    done.countDown();
                }
            });
        }
        assertTrue(done.await(120, TimeUnit.SECONDS), "the threads finished");
        if (failure.get() != null) {
            throw new AssertionError("a thread failed" + what, failure.get());
        }
    }

    /** Nothing held, nobody waiting, no tenant shown as busy, no class counting a run. */
    private static void assertEverythingGivenBack(MainScheduler main) {
        SchedulerSnapshot snapshot = main.snapshot();
        assertEquals(0, snapshot.running(), "every slot given back");
        assertEquals(0, snapshot.waiting(), "nobody left waiting");
        assertTrue(snapshot.tenants().isEmpty(), "no tenant shown as busy: " + snapshot.tenants());
        snapshot.classes().values().forEach(load -> assertEquals(0, load.running()));
    }
}
