package dev.laneway.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.fleet.FleetAllowance;
import dev.laneway.core.lane.LanePermit;
import dev.laneway.core.scheduling.Claim;
import dev.laneway.core.scheduling.MainScheduler;
import dev.laneway.core.scheduling.PriorityClass;
import dev.laneway.core.scheduling.SchedulingObserver;
import dev.laneway.core.scheduling.SchedulingSettings;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The fair share of the fleet's {@code main} cap on a real Redis (docs/behaviour.md §17,
 * docs/decisions.md D228): instances that each have a backlog, one of which took the whole cap
 * first, converge to the cap split among them within a few retries, every instance runs within a
 * bounded time, the shares hold still once reached, and the fleet never holds more than the cap.
 */
class FleetFairShareTest {

    private static final Duration RETRY = Duration.ofMillis(250);
    private static final int CAP = 8;

    private final RedisServer server = RedisServer.shared();
    private final FleetMembers fleet = FleetMembers.on(server);

    @AfterEach
    void closeAll() throws Exception {
        fleet.close();
    }

    /** One instance: its clock, membership, gated scheduler and runs (oldest first). */
    private final class Instance {
        final ManualTime clock;
        final RedisFleetMember member;
        final MainScheduler main;
        final Deque<CompletableFuture<LanePermit>> runs = new ArrayDeque<>();
        final String name;
        private int next;

        Instance(String name) {
            this.name = name;
            FleetMembers.Member joined = fleet.join(FleetTiming.DEFAULTS);
            clock = joined.clock();
            member = joined.member();
            main = new MainScheduler(SchedulingSettings.defaults(), CAP, clock, Duration.ofMinutes(1),
                    SchedulingObserver.NONE);
            fleet.closing(FleetAllowance.gate(main, member.permits("main", CAP).source(), Runnable::run, clock, RETRY));
        }

        void backlog(int count) {
            for (int i = 0; i < count; i++) {
                String session = name + "-" + next++;
                runs.addLast(main.acquire(new Claim(PriorityClass.NORMAL, "t-" + session, session)));
            }
        }

        int held() {
            return member.permits("main", CAP).heldHere();
        }

        int running() {
            return (int) runs.stream().filter(CompletableFuture::isDone).count();
        }

        /** One retry interval passes here, and the oldest run ends (one more message keeps the backlog). */
        void step() {
            clock.advance(RETRY);
            CompletableFuture<LanePermit> done = runs.stream().filter(CompletableFuture::isDone).findFirst().orElse(null);
            if (done != null) {
                runs.remove(done);
                done.join().close();
                backlog(1);
            }
        }
    }

    private List<String> converge(List<Instance> instances, int rounds, int[] firstRun) {
        List<String> shares = new ArrayList<>();
        FleetPermits any = instances.get(0).member.permits("main", CAP);
        for (int round = 0; round < rounds; round++) {
            for (Instance instance : instances) {
                instance.step();
                assertTrue(any.inUse() <= CAP, "never more than the fleet's cap at once");
            }
            StringBuilder split = new StringBuilder();
            for (int i = 0; i < instances.size(); i++) {
                if (instances.get(i).running() > 0 && firstRun[i] < 0) {
                    firstRun[i] = round;
                }
                split.append(i == 0 ? "" : "/").append(instances.get(i).held());
            }
            shares.add(split.toString());
        }
        return shares;
    }

    @Test
    void threeInstancesWithABacklog_shareTheCapNearCapOverThree_andEveryOneRunsWithinAFewRetries() {
        Instance a = new Instance("a");
        a.backlog(40);
        assertEquals(CAP, a.held(), "alone, A takes the whole cap");
        Instance b = new Instance("b");
        Instance c = new Instance("c");
        b.backlog(40);
        c.backlog(40);

        int[] firstRun = {0, -1, -1};
        List<String> shares = converge(List.of(a, b, c), 40, firstRun);
        assertTrue(firstRun[1] >= 0 && firstRun[1] < 8 && firstRun[2] >= 0 && firstRun[2] < 8,
                "B and C ran within 8 retries (2 s): first runs at rounds " + firstRun[1] + ", " + firstRun[2] + "; "
                        + shares);
        String last = shares.get(shares.size() - 1);
        for (String held : last.split("/")) {
            int n = Integer.parseInt(held);
            assertTrue(n == 2 || n == 3, "each holds 8/3 rounded: " + shares);
        }
        assertEquals(CAP, List.of(a, b, c).stream().mapToInt(Instance::held).sum(), "the whole cap in use: " + shares);
        int settled = shares.indexOf(last);
        assertTrue(settled < 15, "settled within 15 retries: " + shares);
        assertTrue(shares.subList(settled, shares.size()).stream().allMatch(last::equals),
                "no flapping once settled: " + shares);
    }

    @Test
    void twoInstancesWithABacklog_splitTheCapInHalves_andALoneOneTakesItAllAgainWhenTheOtherLeaves() {
        Instance a = new Instance("a");
        a.backlog(40);
        Instance b = new Instance("b");
        b.backlog(40);
        int[] firstRun = {0, -1};
        List<String> shares = converge(List.of(a, b), 30, firstRun);
        assertEquals("4/4", shares.get(shares.size() - 1), "halves: " + shares);
        assertTrue(firstRun[1] >= 0 && firstRun[1] < 6, "B ran within 6 retries: " + shares);

        List<CompletableFuture<LanePermit>> running = b.runs.stream().filter(CompletableFuture::isDone).toList();
        b.runs.stream().filter(run -> !run.isDone()).forEach(run -> run.cancel(false)); // B's backlog is gone
        running.forEach(run -> run.join().close());
        b.runs.clear();
        List<String> alone = converge(List.of(a, b), 20, new int[] {0, 0});
        assertEquals(CAP + "/0", alone.get(alone.size() - 1), "A uses the whole cap again: " + alone);
    }

    @Test
    void aProviderPoolsPermits_publishTheirDemandToo_andTheSplitCountsOnlyCurrentDemands() {
        Instance a = new Instance("a");
        Instance b = new Instance("b");
        dev.laneway.core.fleet.FleetPermitSource poolA = a.member.caps().permits("provider:p", 4);
        dev.laneway.core.fleet.FleetPermitSource poolB = b.member.caps().permits("provider:p", 4);
        assertEquals(new dev.laneway.core.fleet.FairShare(4, false), poolA.share(6), "alone: the whole cap");
        for (int i = 0; i < 4; i++) {
            assertTrue(poolA.tryAcquire() != null);
        }
        assertEquals(null, poolB.tryAcquire(), "the pool's cap is taken: B is refused (and remembered so)");
        assertEquals(new dev.laneway.core.fleet.FairShare(2, false), poolB.share(5), "B's share is half; A is not short");
        assertEquals(new dev.laneway.core.fleet.FairShare(2, true), poolA.share(6), "A sees B refused below its share");
        assertEquals(0, poolA.share(0).share(), "A wants nothing more");
        assertEquals(new dev.laneway.core.fleet.FairShare(4, false), poolB.share(5), "B's share is the whole cap now");
    }
}
