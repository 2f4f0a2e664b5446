package dev.laneway.core.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import dev.laneway.core.testing.Await;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Two instances' {@code main} schedulers gated with their caps under real threads, each balancing
 * on an executor of its own (docs/architecture.md §7.1): runs of capped and uncapped tenants, of
 * every class, some withdrawn before their turn. Whatever the interleaving, the fleet's caps hold
 * (main, a tenant's, the background share's permits never over their size, a capped tenant's runs
 * never over its cap across both instances), every run is served, and once all is given back no
 * permit is left held.
 */
class FleetCapsConcurrencyTest {

    private static final int THREADS = 4;
    private static final int ROUNDS = 2_000;
    private static final String HOT = "space:discord:hot";

    @Test
    void theFleetsCapsHoldUnderRealThreads_andEveryPermitGoesBackAtTheEnd() throws Exception {
        ManualTime time = new ManualTime();
        SharedCap main = new SharedCap(3);
        Map<String, SharedCap> named = new HashMap<>();
        FleetCaps caps = (name, cap) -> {
            synchronized (named) {
                return named.computeIfAbsent(name, n -> new SharedCap(cap));
            }
        };
        SchedulingSettings settings = new SchedulingSettings(SchedulingSettings.Mode.FAIR, Duration.ofMinutes(2), 0.5,
                Map.of(), Tenants.Scope.SPACE, new TenantLimits(1, 0, 0), Map.of(HOT, new TenantLimits(1, 2, 0)),
                List.of(), Duration.ofSeconds(5));
        ExecutorService balancing = Executors.newVirtualThreadPerTaskExecutor();
        MainScheduler[] instances = new MainScheduler[2];
        for (int i = 0; i < instances.length; i++) {
            instances[i] = new MainScheduler(settings, 3, time, Duration.ofMinutes(1), SchedulingObserver.NONE);
            FleetAllowance.gateWithCaps(instances[i], main, caps, balancing, time, FleetAllowance.RETRY_EVERY);
        }
        AtomicBoolean ticking = new AtomicBoolean(true);
        // retries: a freed permit elsewhere is learned by them; the ticker yields between steps
        // instead of sleeping, so the run's length depends on the workers alone
        Thread ticker = Thread.ofPlatform().start(() -> {
            while (ticking.get()) {
                time.advance(FleetAllowance.RETRY_EVERY);
                Thread.yield();
            }
        });
        AtomicInteger hotRunning = new AtomicInteger();
        AtomicInteger hotPeak = new AtomicInteger();
        AtomicInteger served = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(THREADS);
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 0; i < ROUNDS; i++) {
                        MainScheduler on = instances[(thread + i) % 2];
                        boolean hot = i % 3 == 0;
                        String tenant = hot ? HOT : "user:" + thread + ":" + (i % 5);
                        Claim claim = new Claim(PriorityClass.values()[i % PriorityClass.COUNT], tenant,
                                "s" + thread + ":" + i);
                        LanePermit permit = on.acquireIfFree(claim);
                        if (permit == null) {
                            CompletableFuture<LanePermit> wait = on.acquire(claim);
                            if (i % 13 == 0 && wait.cancel(false)) {
                                continue; // withdrawn before its turn
                            }
                            permit = wait.get(30, TimeUnit.SECONDS);
                        }
                        if (hot) {
                            hotPeak.accumulateAndGet(hotRunning.incrementAndGet(), Math::max);
                        }
                        Thread.onSpinWait();
                        if (hot) {
                            hotRunning.decrementAndGet();
                        }
                        permit.close();
                        served.incrementAndGet();
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                } finally {
                    done.countDown();
                }
            });
        }
        try {
            assertTrue(done.await(120, TimeUnit.SECONDS), "every run was served");
            assertNull(failure.get(), () -> "a run failed: " + failure.get());
            Await.until("every permit went back", () -> main.held() == 0 && heldOf(named) == 0);
        } finally {
            ticking.set(false);
            ticker.join();
            balancing.shutdownNow();
        }
        assertTrue(served.get() > THREADS * ROUNDS / 2, "most runs ran: " + served.get());
        assertTrue(main.most() <= 3, "main's fleet cap: " + main.most());
        assertTrue(hotPeak.get() <= 2, "the hot tenant's runs across both instances: " + hotPeak.get());
        synchronized (named) {
            assertTrue(named.get(MainScheduler.TENANT_CAP + HOT).most() <= 2);
            SharedCap background = named.get(MainScheduler.BACKGROUND_CAP);
            assertTrue(background == null || background.most() <= 1, "the share of 3 slots is 1");
        }
        for (MainScheduler instance : instances) {
            assertEquals(0, instance.allowance(), "no allowance left without runs");
            assertEquals(0, instance.laneSnapshot().active());
        }
    }

    private static int heldOf(Map<String, SharedCap> named) {
        synchronized (named) {
            return named.values().stream().mapToInt(SharedCap::held).sum();
        }
    }
}
