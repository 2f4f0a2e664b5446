package dev.laneway.core.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.lane.LanePermit;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The scheduler's invariants under random interleavings of arrivals, ends, withdrawals and time
 * (docs/behaviour.md §11): never more than the cap; every permit gives its slot back exactly once;
 * background is never granted beyond its share while others wait; a background run served as
 * background waited less than the aging bound (it is promoted by then); everything that waits is
 * served once the load stops; and equal-weight backlogged tenants are served within one run of each
 * other over any window.
 */
class MainSchedulerPropertiesTest {

    private static final int TENANTS = 5;
    private static final Duration AGING = Duration.ofSeconds(60);

    sealed interface Op permits Arrive, Finish, Cancel, Advance { }

    record Arrive(PriorityClass priority, int tenant) implements Op { }

    record Finish(int index) implements Op { }

    record Cancel(int index) implements Op { }

    record Advance(long millis) implements Op { }

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<Op> arrive = Combinators.combine(Arbitraries.of(PriorityClass.class), Arbitraries.integers().between(0, TENANTS - 1))
                .as(Arrive::new);
        Arbitrary<Op> finish = Arbitraries.integers().between(0, 50).map(Finish::new);
        Arbitrary<Op> cancel = Arbitraries.integers().between(0, 50).map(Cancel::new);
        Arbitrary<Op> advance = Arbitraries.longs().between(0, 90_000).map(Advance::new);
        return Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(6, arrive), net.jqwik.api.Tuple.of(4, finish),
                        net.jqwik.api.Tuple.of(1, cancel), net.jqwik.api.Tuple.of(2, advance))
                .list().ofMaxSize(200);
    }

    /** One request the test made, and what became of it. */
    private static final class Request {
        final PriorityClass priority;
        final CompletableFuture<LanePermit> future;
        boolean closed;

        Request(PriorityClass priority, CompletableFuture<LanePermit> future) {
            this.priority = priority;
            this.future = future;
        }
    }

    @Property(tries = 300)
    void invariantsHoldUnderRandomInterleavings(@ForAll("ops") List<Op> ops, @ForAll @IntRange(min = 1, max = 5) int cap,
                                                @ForAll @IntRange(min = 0, max = 2) int tenantCap) {
        ManualTime time = new ManualTime();
        Map<String, TenantLimits> limits = new HashMap<>();
        limits.put("t0", new TenantLimits(2, tenantCap, 0)); // one heavier tenant, maybe capped
        var settings = new SchedulingSettings(SchedulingSettings.Mode.FAIR, AGING, 0.5, Map.of(), Tenants.Scope.SPACE,
                TenantLimits.DEFAULT, limits, List.of(), Duration.ofSeconds(5));
        int backgroundLimit = Math.max(1, (int) Math.floor(cap * 0.5));
        List<String> violations = new ArrayList<>();
        MainScheduler[] holder = new MainScheduler[1];
        SchedulingObserver observer = new SchedulingObserver() {
            @Override
            public void granted(PriorityClass asked, PriorityClass served, String tenant, Duration waited, Duration estimated) {
                if (served == PriorityClass.BACKGROUND && waited.compareTo(AGING) >= 0) {
                    violations.add("a background run was served as background after waiting " + waited);
                }
                if (served.ordinal() < asked.ordinal() && asked != PriorityClass.BACKGROUND) {
                    violations.add("a " + asked + " run was promoted to " + served);
                }
            }
        };
        MainScheduler main = new MainScheduler(settings, cap, time, Duration.ofHours(1), observer);
        holder[0] = main;
        List<Request> requests = new ArrayList<>();
        int session = 0;
        for (Op op : ops) {
            int backgroundBefore = main.snapshot().classes().get(PriorityClass.BACKGROUND).running();
            switch (op) {
                case Arrive arrive -> {
                    var claim = new Claim(arrive.priority(), "t" + arrive.tenant(), "s" + session++);
                    LanePermit now = main.acquireIfFree(claim);
                    requests.add(new Request(arrive.priority(),
                            now != null ? CompletableFuture.completedFuture(now) : main.acquire(claim)));
                }
                case Finish finish -> {
                    List<Request> holding = requests.stream().filter(r -> r.future.isDone() && !r.future.isCancelled()
                            && !r.closed).toList();
                    if (!holding.isEmpty()) {
                        Request r = holding.get(finish.index() % holding.size());
                        r.closed = true;
                        r.future.join().close();
                        r.future.join().close(); // a second close gives nothing back
                    }
                }
                case Cancel cancel -> {
                    List<Request> waiting = requests.stream().filter(r -> !r.future.isDone()).toList();
                    if (!waiting.isEmpty()) {
                        waiting.get(cancel.index() % waiting.size()).future.cancel(false);
                    }
                }
                case Advance advance -> time.advanceMillis(advance.millis());
            }
            SchedulerSnapshot snapshot = main.snapshot();
            long holding = requests.stream().filter(r -> r.future.isDone() && !r.future.isCancelled() && !r.closed).count();
            long waiting = requests.stream().filter(r -> !r.future.isDone()).count();
            assertTrue(snapshot.running() <= cap, "running " + snapshot.running() + " above the cap " + cap);
            assertEquals(holding, snapshot.running(), "the scheduler's count of slots held matches the permits not closed");
            assertEquals(waiting, snapshot.waiting());
            int backgroundNow = snapshot.classes().get(PriorityClass.BACKGROUND).running();
            int othersWaiting = snapshot.waiting() - snapshot.classes().get(PriorityClass.BACKGROUND).waiting();
            if (backgroundNow > Math.max(backgroundLimit, backgroundBefore)) {
                assertEquals(0, othersWaiting, "background was granted beyond its share while others waited");
            }
            if (tenantCap > 0) {
                long t0Running = snapshot.tenants().stream().filter(t -> t.tenant().equals("t0"))
                        .mapToLong(SchedulerSnapshot.TenantLoad::running).sum();
                assertTrue(t0Running <= tenantCap, "tenant t0 above its running cap");
            }
        }
        assertEquals(List.of(), violations);
        // the load stops: ending runs one by one serves everyone still waiting (no starvation)
        for (int guard = 0; guard < 10_000; guard++) {
            var holding = requests.stream().filter(r -> r.future.isDone() && !r.future.isCancelled() && !r.closed)
                    .findFirst();
            if (holding.isEmpty()) {
                break;
            }
            holding.get().closed = true;
            holding.get().future.join().close();
            time.advanceMillis(1_000);
        }
        assertTrue(requests.stream().allMatch(r -> r.future.isDone()), "a request was never served");
        assertEquals(0, main.snapshot().running());
        assertEquals(List.of(), main.snapshot().tenants(), "tenants are forgotten once they have nothing left");
    }

    @Property(tries = 200)
    void backloggedTenantsOfEqualWeightAreServedWithinOneRunOfEachOther(
            @ForAll("backlogs") List<Integer> backlogs, @ForAll @IntRange(min = 1, max = 4) int cap) {
        ManualTime time = new ManualTime();
        MainScheduler main = new MainScheduler(SchedulingSettings.defaults(), cap, time, Duration.ofHours(1),
                SchedulingObserver.NONE);
        List<LanePermit> blockers = new ArrayList<>();
        for (int i = 0; i < cap; i++) {
            blockers.add(main.acquireIfFree(new Claim(PriorityClass.NORMAL, "blocker", "b" + i)));
        }
        List<String> served = new ArrayList<>();
        List<CompletableFuture<LanePermit>> futures = new ArrayList<>();
        int[] left = new int[backlogs.size()];
        for (int t = 0; t < backlogs.size(); t++) {
            left[t] = backlogs.get(t);
            for (int i = 0; i < backlogs.get(t); i++) {
                String tenant = "t" + t;
                var future = main.acquire(new Claim(PriorityClass.NORMAL, tenant, tenant + "-" + i));
                future.thenRun(() -> served.add(tenant));
                futures.add(future);
            }
        }
        blockers.forEach(LanePermit::close);
        for (int guard = 0; guard < 100_000 && served.size() < futures.size(); guard++) {
            futures.stream().filter(CompletableFuture::isDone).map(CompletableFuture::join).forEach(LanePermit::close);
        }
        assertEquals(futures.size(), served.size());
        // over any window in which two tenants both still had runs waiting, their service differs by at most one
        for (int a = 0; a < backlogs.size(); a++) {
            for (int b = a + 1; b < backlogs.size(); b++) {
                int lastBoth = Math.min(lastIndexOf(served, "t" + a), lastIndexOf(served, "t" + b));
                for (int from = 0; from <= lastBoth; from++) {
                    int diff = 0;
                    for (int i = from; i <= lastBoth; i++) {
                        diff += served.get(i).equals("t" + a) ? 1 : served.get(i).equals("t" + b) ? -1 : 0;
                        assertTrue(Math.abs(diff) <= 1, "tenants t" + a + " and t" + b + " apart by " + diff
                                + " in window " + from + ".." + i + " of " + served);
                    }
                }
            }
        }
    }

    @Provide
    Arbitrary<List<Integer>> backlogs() {
        return Arbitraries.integers().between(1, 12).list().ofMinSize(2).ofMaxSize(5);
    }

    private static int lastIndexOf(List<String> served, String tenant) {
        return served.lastIndexOf(tenant);
    }
}
