package dev.laneway.core.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The fair share of a fleet-wide cap among instances with a backlog (docs/behaviour.md §17,
 * docs/decisions.md D228): the split rule, and gated schedulers whose allowance converges to it
 * (an instance above its share gives a permit back when a run ends while another is short). The
 * fleet's store is an in-memory one here; the Redis one is tested in store-redis.
 */
class FleetFairShareTest {

    private static final Duration RETRY = Duration.ofMillis(250);

    private final ManualTime time = new ManualTime();

    /** The fleet's permits and published demands, shared by every instance's source. */
    static final class FairCap {
        private final int cap;
        private final Map<String, Integer> held = new HashMap<>();
        private final Map<String, Integer> demand = new HashMap<>();
        private final java.util.Set<String> refused = new java.util.HashSet<>();
        private int most;

        FairCap(int cap) {
            this.cap = cap;
        }

        FleetPermitSource source(String id) {
            return new FleetPermitSource() {
                @Override
                public Permit tryAcquire() {
                    synchronized (FairCap.this) {
                        int total = held.values().stream().mapToInt(Integer::intValue).sum();
                        if (total >= cap) {
                            refused.add(id);
                            return null;
                        }
                        refused.remove(id);
                        held.merge(id, 1, Integer::sum);
                        most = Math.max(most, total + 1);
                    }
                    boolean[] released = {false};
                    return () -> {
                        synchronized (FairCap.this) {
                            if (!released[0]) {
                                released[0] = true;
                                held.merge(id, -1, Integer::sum);
                            }
                        }
                    };
                }

                @Override
                public FairShare share(int wanted) {
                    synchronized (FairCap.this) {
                        demand.put(id, wanted);
                        List<FairShares.Instance> all = new ArrayList<>();
                        demand.forEach((who, d) -> all.add(new FairShares.Instance(who, d, held.getOrDefault(who, 0),
                                refused.contains(who))));
                        return FairShares.of(cap, id, all);
                    }
                }
            };
        }

        synchronized int held(String id) {
            return held.getOrDefault(id, 0);
        }

        synchronized int most() {
            return most;
        }
    }

    /** One instance: a gated scheduler and its runs, oldest first. */
    private final class Instance {
        final MainScheduler main;
        final Deque<CompletableFuture<LanePermit>> runs = new ArrayDeque<>();
        private int next;
        final String id;

        Instance(String id, FairCap fleet, int localCap) {
            this.id = id;
            main = new MainScheduler(SchedulingSettings.defaults(), localCap, time, Duration.ofMinutes(10),
                    SchedulingObserver.NONE);
            FleetAllowance.gate(main, fleet.source(id), Runnable::run, time, RETRY);
        }

        void backlog(int runs) {
            for (int i = 0; i < runs; i++) {
                String session = id + "-" + next++;
                Claim claim = new Claim(PriorityClass.NORMAL, "t-" + session, session);
                LanePermit now = main.acquireIfFree(claim);
                this.runs.addLast(now != null ? CompletableFuture.completedFuture(now) : main.acquire(claim));
            }
        }

        int running() {
            return (int) runs.stream().filter(CompletableFuture::isDone).count();
        }

        /** The oldest running run ends (and one more message arrives, so the backlog stays). */
        void endOne() {
            CompletableFuture<LanePermit> done = runs.stream().filter(CompletableFuture::isDone).findFirst().orElseThrow();
            runs.remove(done);
            done.join().close();
            backlog(1);
        }
    }

    @Test
    void theSplit_givesEachWantingInstanceAnEqualPart_theRemainderByIdAndTheSpareOfSmallDemandsToTheOthers() {
        assertEquals(Map.of("a", 3, "b", 3, "c", 2), FairShares.split(8, List.of(
                new FairShares.Instance("c", 50, 0, true), new FairShares.Instance("a", 50, 8, true),
                new FairShares.Instance("b", 50, 0, true))));
        assertEquals(Map.of("a", 1, "b", 4, "c", 3), FairShares.split(8, List.of(
                new FairShares.Instance("a", 1, 0, true), new FairShares.Instance("b", 50, 0, true),
                new FairShares.Instance("c", 50, 0, true))));
        assertEquals(Map.of("b", 8), FairShares.split(8, List.of(
                new FairShares.Instance("a", 0, 0, true), new FairShares.Instance("b", 50, 0, true))));
        FairShare lone = FairShares.of(8, "a", List.of(new FairShares.Instance("a", 50, 8, true)));
        assertEquals(Integer.MAX_VALUE, lone.ceiling(), "a lone instance is held to nothing");
        FairShare atShare = FairShares.of(8, "a", List.of(new FairShares.Instance("a", 50, 4, true),
                new FairShares.Instance("b", 50, 4, true)));
        assertFalse(atShare.othersShort(), "nobody below its share: nothing moves");
        FairShare above = FairShares.of(8, "a", List.of(new FairShares.Instance("a", 50, 5, true),
                new FairShares.Instance("b", 50, 3, true)));
        assertEquals(4, above.ceiling(), "b is a permit short: a is held to its share");
        FairShare notAsking = FairShares.of(8, "a", List.of(new FairShares.Instance("a", 50, 5, true),
                new FairShares.Instance("b", 50, 3, false)));
        assertEquals(Integer.MAX_VALUE, notAsking.ceiling(), "b was not refused lately: nobody is held back for it");
    }

    @Test
    void anInstanceAboveItsShare_givesAPermitBackWhenARunEnds_andTheSharesConvergeWithoutFlapping() {
        FairCap fleet = new FairCap(8);
        Instance a = new Instance("a", fleet, 8);
        Instance b = new Instance("b", fleet, 8);
        Instance c = new Instance("c", fleet, 8);
        a.backlog(30);
        assertEquals(8, fleet.held("a"), "alone, A takes the whole cap");
        b.backlog(30);
        c.backlog(30);
        assertEquals(0, b.running() + c.running(), "the cap is taken");

        List<String> shares = new ArrayList<>();
        for (int round = 0; round < 40; round++) {
            time.advance(RETRY);
            for (Instance instance : List.of(a, b, c)) {
                if (instance.running() > 0) {
                    instance.endOne();
                }
            }
            shares.add(fleet.held("a") + "/" + fleet.held("b") + "/" + fleet.held("c"));
            assertTrue(fleet.most() <= 8, "never more than the fleet's cap at once");
        }
        assertEquals(List.of("3/3/2", "3/3/2", "3/3/2", "3/3/2", "3/3/2"), shares.subList(35, 40),
                "converged to the split of 8 among three, and stays there: " + shares);
        int firstConverged = shares.indexOf("3/3/2");
        assertTrue(firstConverged >= 0 && firstConverged < 10, "converged within 10 retries: " + shares);
        assertTrue(shares.subList(firstConverged, 40).stream().allMatch("3/3/2"::equals), "no flapping: " + shares);
        assertEquals(3, a.running());
        assertEquals(2, c.running());
    }

    @Test
    void whenTheOtherInstanceHasNoMoreBacklog_theFirstTakesTheWholeCapAgain() {
        FairCap fleet = new FairCap(4);
        Instance a = new Instance("a", fleet, 4);
        Instance b = new Instance("b", fleet, 4);
        a.backlog(10);
        b.backlog(2);
        for (int round = 0; round < 6; round++) {
            time.advance(RETRY);
            a.endOne();
        }
        assertEquals(2, fleet.held("b"), "B got its two runs");
        b.runs.forEach(run -> run.join().close());
        b.runs.clear();
        for (int round = 0; round < 6; round++) {
            time.advance(RETRY);
            a.endOne();
        }
        assertEquals(4, fleet.held("a"), "A uses the whole cap again once B wants nothing");
        assertEquals(0, fleet.held("b"));
        assertTrue(fleet.most() <= 4);
    }
}
