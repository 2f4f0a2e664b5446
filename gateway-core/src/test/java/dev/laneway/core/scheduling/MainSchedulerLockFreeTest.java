package dev.laneway.core.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.lane.LanePermit;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * When the {@code main} scheduler takes its lock and when it does not (docs/decisions.md D236, D237). A
 * thread is parked inside the lock (the clock it reads there blocks it), and the test asks the
 * scheduler from other threads: what the lock-free common case covers answers at once, and what
 * takes the lock is seen queued on it until the holder lets go. Also the tenant a claim remembers,
 * and the returning tenants a sweep keeps.
 */
class MainSchedulerLockFreeTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    private final ManualTime time = new ManualTime();
    private final HoldingClock clock = new HoldingClock(time);
    private Thread holder;

    @AfterEach
    void letGo() throws InterruptedException {
        clock.release();
        if (holder != null) {
            holder.join(WAIT.toMillis());
        }
    }

    /** A clock that parks one chosen thread when it reads the time, until released. */
    private static final class HoldingClock implements InstantSource {
        private final InstantSource time;
        private volatile Thread parked;
        private final CountDownLatch entered = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);

        HoldingClock(InstantSource time) {
            this.time = time;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis());
        }

        @Override
        public long millis() {
            if (Thread.currentThread() == parked) {
                parked = null;
                entered.countDown();
                try {
                    released.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return time.millis();
        }

        void release() {
            released.countDown();
        }
    }

    private MainScheduler scheduler(SchedulingSettings settings, int cap) {
        return new MainScheduler(settings, cap, clock, Duration.ofMinutes(10), SchedulingObserver.NONE);
    }

    private static SchedulingSettings withTenant(String id, TenantLimits limits) {
        return new SchedulingSettings(SchedulingSettings.Mode.FAIR, Duration.ofMinutes(2), 0.5, Map.of(),
                Tenants.Scope.SPACE, TenantLimits.DEFAULT, Map.of(id, limits), List.of(), Duration.ofSeconds(5));
    }

    /** Parks a thread inside the scheduler's lock ({@link MainScheduler#pausedUntil} reads the clock there). */
    private void holdTheLock(MainScheduler main) throws InterruptedException {
        holder = Thread.ofPlatform().start(() -> {
            clock.parked = Thread.currentThread();
            main.pausedUntil();
        });
        assertTrue(clock.entered.await(WAIT.toMillis(), TimeUnit.MILLISECONDS), "the holder is inside the lock");
    }

    /** Runs {@code call} on a thread of its own; the thread is returned with its result. */
    private static <T> Asked<T> ask(Supplier<T> call) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread thread = Thread.ofPlatform().start(() -> {
            try {
                result.complete(call.get());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        });
        return new Asked<>(thread, result);
    }

    private record Asked<T>(Thread thread, CompletableFuture<T> result) {
        T get() throws Exception {
            return result.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** Until {@code asked}'s thread waits for the scheduler's lock (busy-polls: nothing to sleep for). */
    private static void awaitQueued(MainScheduler main, Asked<?> asked) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!main.waitsForLock(asked.thread())) {
            assertFalse(asked.result().isDone(), "answered without the lock");
            assertTrue(System.nanoTime() < deadline, "never queued on the lock");
            Thread.onSpinWait();
        }
    }

    @Test
    void notGated_aFreeSlotIsAskedForTakenAndGivenBackWithoutTheLock() throws Exception {
        MainScheduler main = scheduler(SchedulingSettings.defaults(), 2);
        holdTheLock(main);
        assertTrue(ask(main::freeNow).get());
        LanePermit a = ask(() -> main.acquireIfFree(new Claim(PriorityClass.NORMAL, "t", "a"))).get();
        LanePermit b = ask(() -> main.acquireIfFree(new Claim(PriorityClass.BACKGROUND, "u", "b"))).get();
        assertNotNull(a);
        assertNotNull(b);
        assertFalse(ask(main::freeNow).get(), "both slots held");
        assertNull(ask(() -> main.acquireIfFree(new Claim(PriorityClass.NORMAL, "v", "c"))).get(), "none free");
        ask(() -> {
            a.close();
            return null;
        }).get();
        assertTrue(ask(main::freeNow).get(), "given back without the lock");
        assertEquals(Duration.ofSeconds(5).toMillis() * 7 / 8, ask(main::meanRunTime).get().toMillis(),
                "the run time is counted");
        clock.release();
        holder.join();
        b.close();
        SchedulerSnapshot snapshot = main.snapshot();
        assertEquals(0, snapshot.running());
        assertEquals(List.of(), snapshot.tenants());
        snapshot.classes().values().forEach(load -> assertEquals(0, load.running()));
    }

    @Test
    void notGated_aTenantWithARunningCapIsGrantedAndGivesBackUnderTheLock() throws Exception {
        MainScheduler main = scheduler(withTenant("capped", new TenantLimits(1, 1, 0)), 2);
        holdTheLock(main);
        var asked = ask(() -> main.acquireIfFree(new Claim(PriorityClass.NORMAL, "capped", "a")));
        awaitQueued(main, asked);
        clock.release();
        LanePermit permit = asked.get();
        assertNotNull(permit);
        assertNull(main.acquireIfFree(new Claim(PriorityClass.NORMAL, "capped", "b")), "at its own cap");
        assertEquals(List.of(new SchedulerSnapshot.TenantLoad("capped", 1, 0)), main.snapshot().tenants());
        holder.join();
    }

    @Test
    void notGated_aCappedTenantsReleaseTakesTheLock() throws Exception {
        MainScheduler main = scheduler(withTenant("capped", new TenantLimits(1, 1, 0)), 2);
        LanePermit permit = main.acquireIfFree(new Claim(PriorityClass.NORMAL, "capped", "a"));
        holdTheLock(main);
        var closed = ask(() -> {
            permit.close();
            return true;
        });
        awaitQueued(main, closed);
        clock.release();
        assertTrue(closed.get());
        assertEquals(0, main.snapshot().running());
        assertEquals(List.of(), main.snapshot().tenants());
    }

    @Test
    void notGated_aReleaseWithSomeoneWaitingTakesTheLockAndHandsTheSlotOn() throws Exception {
        MainScheduler main = scheduler(SchedulingSettings.defaults(), 1);
        LanePermit held = main.acquireIfFree(new Claim(PriorityClass.NORMAL, "t", "a"));
        CompletableFuture<LanePermit> waiting = main.acquire(new Claim(PriorityClass.NORMAL, "u", "b"));
        assertFalse(main.freeNow(), "someone waits");
        holdTheLock(main);
        var closed = ask(() -> {
            held.close();
            return true;
        });
        awaitQueued(main, closed);
        assertFalse(waiting.isDone());
        clock.release();
        assertTrue(closed.get());
        assertNotNull(waiting.get(WAIT.toMillis(), TimeUnit.MILLISECONDS), "the freed slot went to the waiter");
        assertEquals(1, main.snapshot().running());
        assertEquals(0, main.snapshot().waiting());
    }

    @Test
    void notGated_queuingTakesTheLock() throws Exception {
        MainScheduler main = scheduler(SchedulingSettings.defaults(), 1);
        main.acquireIfFree(new Claim(PriorityClass.NORMAL, "t", "a"));
        holdTheLock(main);
        var queued = ask(() -> main.acquire(new Claim(PriorityClass.NORMAL, "u", "b")));
        awaitQueued(main, queued);
        clock.release();
        assertFalse(queued.get().isDone());
        assertEquals(1, main.snapshot().waiting());
    }

    @Test
    void gated_everyGrantReleaseAndQuestionTakesTheLock() throws Exception {
        MainScheduler main = scheduler(SchedulingSettings.defaults(), 2);
        main.gateBy(cap -> { });
        main.addAllowance(2);
        LanePermit held = main.acquireIfFree(new Claim(PriorityClass.NORMAL, "t", "a"));
        assertNotNull(held);
        holdTheLock(main);
        var free = ask(main::freeNow);
        var granted = ask(() -> main.acquireIfFree(new Claim(PriorityClass.NORMAL, "u", "b")));
        var closed = ask(() -> {
            held.close();
            return true;
        });
        awaitQueued(main, free);
        awaitQueued(main, granted);
        awaitQueued(main, closed);
        clock.release();
        assertTrue(free.get());
        assertNotNull(granted.get());
        assertTrue(closed.get());
        assertEquals(1, main.snapshot().running());
        assertEquals(2, main.allowance());
    }

    @Test
    void paused_orAtTheCap_aRunGetsNoSlotWithoutTheLockEither() throws Exception {
        MainScheduler main = scheduler(SchedulingSettings.defaults(), 1);
        main.pauseUntil(time.instant().plusSeconds(10));
        assertFalse(main.freeNow());
        assertNull(main.acquireIfFree(new Claim(PriorityClass.NORMAL, "t", "a")), "paused");
        time.advance(Duration.ofSeconds(10));
        main.resume();
        LanePermit a = main.acquireIfFree(new Claim(PriorityClass.NORMAL, "t", "a"));
        assertNotNull(a);
        main.setCap(2);
        LanePermit b = main.acquireIfFree(new Claim(PriorityClass.NORMAL, "t", "b"));
        assertNotNull(b, "a higher cap is seen at once");
        main.setCap(1);
        a.close();
        assertFalse(main.freeNow(), "a lower cap takes no slot back and grants none until fewer are held");
        assertNull(main.acquireIfFree(new Claim(PriorityClass.NORMAL, "t", "c")));
        b.close();
        assertTrue(main.freeNow());
    }

    @Test
    void aClaimRemembersItsTenantAndAnotherClassKeepsIt() {
        MainScheduler main = new MainScheduler(SchedulingSettings.defaults(), 2, time, Duration.ofMinutes(10),
                SchedulingObserver.NONE);
        Claim claim = new Claim(PriorityClass.NORMAL, "user:1", "s");
        main.acquireIfFree(claim).close();
        Tenant tenant = claim.resolved;
        assertNotNull(tenant);
        main.acquireIfFree(claim).close();
        assertSame(tenant, claim.resolved, "found again without a lookup");
        Claim urgent = claim.withPriority(PriorityClass.INTERACTIVE);
        assertEquals(new Claim(PriorityClass.INTERACTIVE, "user:1", "s"), urgent);
        assertSame(tenant, urgent.resolved);
        assertSame(claim, claim.withPriority(PriorityClass.NORMAL));
        // another scheduler (a provider pool's) finds its own tenant and leaves the claim's as it was
        MainScheduler pool = new MainScheduler("pool", SchedulingSettings.defaults(), 1, time, Duration.ofMinutes(10),
                SchedulingObserver.NONE);
        LanePermit pooled = pool.acquireIfFree(claim);
        assertEquals(List.of(new SchedulerSnapshot.TenantLoad("user:1", 1, 0)), pool.snapshot().tenants());
        assertEquals(List.of(), main.snapshot().tenants());
        assertSame(tenant, claim.resolved);
        pooled.close();
        assertEquals(List.of(), pool.snapshot().tenants());
    }

    @Test
    void aTenantSweptWhileItsClaimWasKeptIsKeptWhileItsSessionRests() {
        MainScheduler main = new MainScheduler(SchedulingSettings.defaults(), 2, time, Duration.ofMinutes(10),
                SchedulingObserver.NONE);
        Claim resting = new Claim(PriorityClass.NORMAL, "user:resting", "r");
        main.acquireIfFree(resting).close();
        Tenant first = resting.resolved;
        oneShotTenants(main, 0, 3000); // past the bound: the idle tenant is swept
        assertTrue(first.gone(), "swept as any idle tenant");
        main.acquireIfFree(resting).close();
        Tenant second = resting.resolved;
        assertNotSame(first, second, "its claim came back: added again");
        assertTrue(second.returning);
        oneShotTenants(main, 3000, 6000);
        assertSame(second, resting.resolved);
        assertFalse(second.gone(), "a returning tenant is kept through sweeps");
        assertTrue(main.trackedTenants() <= 2 * 1024 + 2, "one-shot tenants are still swept: " + main.trackedTenants());
        time.advance(Duration.ofMillis(MainScheduler.RETURNING_KEPT_MILLIS));
        oneShotTenants(main, 6000, 9000);
        assertTrue(second.gone(), "swept once it rested as long as a session does");
        LanePermit third = main.acquireIfFree(resting);
        assertNotSame(second, resting.resolved);
        assertEquals(List.of(new SchedulerSnapshot.TenantLoad("user:resting", 1, 0)), main.snapshot().tenants());
        third.close();
        assertEquals(List.of(), main.snapshot().tenants());
    }

    private static void oneShotTenants(MainScheduler main, int from, int to) {
        for (int i = from; i < to; i++) {
            main.acquireIfFree(new Claim(PriorityClass.INTERACTIVE, "user:" + i, "s" + i)).close();
        }
    }

    @Test
    void fifo_everyRunIsOneTenantTakenWithoutTheLock() throws Exception {
        var fifo = SchedulingSettings.defaults().withMode(SchedulingSettings.Mode.FIFO);
        MainScheduler main = scheduler(fifo, 2);
        holdTheLock(main);
        LanePermit a = ask(() -> main.acquireIfFree(new Claim(PriorityClass.BACKGROUND, "x", "a"))).get();
        LanePermit b = ask(() -> main.acquireIfFree(new Claim(PriorityClass.INTERACTIVE, "y", "b"))).get();
        assertNotNull(a);
        assertNotNull(b);
        clock.release();
        holder.join();
        assertEquals(List.of(new SchedulerSnapshot.TenantLoad("all", 2, 0)), main.snapshot().tenants());
        a.close();
        b.close();
        assertEquals(0, main.snapshot().running());
    }
}
