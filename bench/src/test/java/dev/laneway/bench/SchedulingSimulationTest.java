package dev.laneway.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.scheduling.PriorityClass;
import dev.laneway.core.scheduling.SchedulingSettings;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SchedulingSimulationTest {

    /** A smaller load of the same shape: 2 slots, 20 DM users, a flood from 20 s to 80 s, 70 jobs at 10 s. */
    private static final SimScenario SMALL = new SimScenario(2, 1_000, 0.8, 20, 0.30, 4, 0.10, 10, 20_000, 80_000,
            10_000, new int[] {40, 20, 10}, 100_000);

    private static final SchedulingReport REPORT = SchedulingSimulation.run(SMALL, 7, 3);

    @Test
    void everyMessageRunsOnceForItsDrawnTime_andWaitsAreNeverNegative() {
        for (SchedulingSettings.Mode mode : SchedulingSettings.Mode.values()) {
            for (SimOutcome outcome : REPORT.outcomes(mode)) {
                assertEquals(mode, outcome.mode());
                for (SimLoad.Message m : outcome.load()) {
                    long asked = outcome.asked()[m.id()];
                    long granted = outcome.granted()[m.id()];
                    assertTrue(m.arrivalMillis() <= asked && asked <= granted, mode + " " + m + ": asked " + asked
                            + ", granted " + granted);
                    assertEquals(m.runMillis(), outcome.ended()[m.id()] - granted, mode + " " + m);
                }
                assertTrue(java.util.Arrays.stream(outcome.waits(m -> true)).allMatch(w -> w >= 0));
                assertEquals(SMALL.backgroundTotal(), outcome.backgroundJobsDone(), "every background job done");
            }
        }
    }

    @Test
    void aSessionRunsOneMessageAtATime_inArrivalOrder() {
        for (SchedulingSettings.Mode mode : SchedulingSettings.Mode.values()) {
            SimOutcome outcome = REPORT.outcomes(mode).get(0);
            Map<String, List<SimLoad.Message>> bySession = new HashMap<>();
            outcome.load().forEach(m -> bySession.computeIfAbsent(m.session(), s -> new ArrayList<>()).add(m));
            bySession.forEach((session, messages) -> {
                messages.sort(Comparator.comparingLong((SimLoad.Message m) -> m.arrivalMillis()).thenComparingInt(SimLoad.Message::id));
                for (int i = 1; i < messages.size(); i++) {
                    long previousEnd = outcome.ended()[messages.get(i - 1).id()];
                    long start = outcome.granted()[messages.get(i).id()];
                    assertTrue(start >= previousEnd, mode + " session " + session + ": run " + i + " started at " + start
                            + " before the previous one ended at " + previousEnd);
                }
            });
        }
    }

    @Test
    void bothModesSeeTheSameLoad_andASeedAlwaysDrawsTheSameOne() {
        for (int r = 0; r < 3; r++) {
            assertEquals(REPORT.outcomes(SchedulingSettings.Mode.FAIR).get(r).load(),
                    REPORT.outcomes(SchedulingSettings.Mode.FIFO).get(r).load());
        }
        assertEquals(SimLoad.draw(SMALL, 7), REPORT.outcomes(SchedulingSettings.Mode.FAIR).get(0).load());
        assertTrue(!SimLoad.draw(SMALL, 8).equals(SimLoad.draw(SMALL, 7)));
    }

    @Test
    void theLoadHasTheScenariosShape() {
        List<SimLoad.Message> load = SimLoad.draw(SMALL, 7);
        assertEquals(SMALL.backgroundTotal(), load.stream().filter(m -> m.source() == SimLoad.Source.BACKGROUND
                && m.arrivalMillis() == SMALL.backgroundAtMillis() && m.priority() == PriorityClass.BACKGROUND).count());
        assertTrue(load.stream().filter(m -> m.source() == SimLoad.Source.DM)
                .allMatch(m -> m.priority() == PriorityClass.INTERACTIVE && m.tenant().equals(m.session())));
        long floodGuild = load.stream().filter(m -> m.tenant().equals("guild") && m.arrivalMillis() >= 20_000
                && m.arrivalMillis() < 80_000).count();
        long quietGuild = load.stream().filter(m -> m.tenant().equals("guild")).count() - floodGuild;
        // 60 s at 10× the fair share against 40 s at 1×: the flood sends many times more
        assertTrue(floodGuild > 5 * quietGuild, "flood " + floodGuild + ", quiet " + quietGuild);
        for (int i = 1; i < load.size(); i++) {
            assertEquals(i, load.get(i).id());
            assertTrue(load.get(i - 1).arrivalMillis() <= load.get(i).arrivalMillis());
        }
    }

    @Test
    void fairBeatsFifoOnInteractiveWaitsDuringTheFlood_andOnFairnessAmongBackgroundTenants() {
        double fair = p95FloodInteractive(SchedulingSettings.Mode.FAIR);
        double fifo = p95FloodInteractive(SchedulingSettings.Mode.FIFO);
        assertTrue(fair < fifo / 4, "fair p95 " + fair + " ms, fifo p95 " + fifo + " ms");
        for (int r = 0; r < 3; r++) {
            double fairJain = REPORT.outcomes(SchedulingSettings.Mode.FAIR).get(r).backgroundFairness().jain();
            double fifoJain = REPORT.outcomes(SchedulingSettings.Mode.FIFO).get(r).backgroundFairness().jain();
            assertTrue(fairJain >= 0.95 && fairJain > fifoJain, "Jain fair " + fairJain + ", fifo " + fifoJain);
        }
    }

    @Test
    void noSlotIsIdleWhileARunWaits_inEitherMode() {
        for (SchedulingSettings.Mode mode : SchedulingSettings.Mode.values()) {
            for (SimOutcome outcome : REPORT.outcomes(mode)) {
                assertTrue(outcome.waitedMillis() > 0, "the load must make runs wait");
                assertEquals((long) outcome.cap() * outcome.waitedMillis(), outcome.busyWhileWaitedMillis(), mode.name());
                assertTrue(outcome.utilisation() > 0 && outcome.utilisation() <= 1);
            }
        }
    }

    @Test
    void theReportsTablesHaveAsManyCellsInEveryRow() {
        String table = REPORT.render();
        assertTrue(table.contains("| target (issue 15) | fair | met | fifo, same loads |"), table);
        int expected = -1;
        for (String line : table.split("\n")) {
            if (!line.startsWith("|")) {
                expected = -1;
                continue;
            }
            int cells = line.split("\\|", -1).length;
            if (expected < 0) {
                expected = cells;
            }
            assertEquals(expected, cells, "row with a stray '|': " + line);
        }
        List<Boolean> fifo = REPORT.targetsMet(SchedulingSettings.Mode.FIFO);
        assertEquals(7, fifo.size());
        assertEquals(false, fifo.get(1), "fifo's interactive p95 wait is far above twice the mean run time");
        assertEquals(true, fifo.get(6), "fifo too runs every background job");
    }

    private static double p95FloodInteractive(SchedulingSettings.Mode mode) {
        long[] waits = REPORT.outcomes(mode).stream()
                .flatMapToLong(o -> java.util.Arrays.stream(o.waits(m -> m.priority() == PriorityClass.INTERACTIVE
                        && m.arrivalMillis() >= SMALL.floodStartMillis() && m.arrivalMillis() < SMALL.floodEndMillis())))
                .toArray();
        assertTrue(waits.length > 50, "too few interactive messages in the flood: " + waits.length);
        return SimStats.percentile(waits, 95);
    }

    @Test
    void percentilesAreByNearestRank_andJainRunsFromOneOverNToOne() {
        long[] values = {5, 1, 4, 2, 3};
        assertEquals(1, SimStats.percentile(values, 0));
        assertEquals(3, SimStats.percentile(values, 50));
        assertEquals(5, SimStats.percentile(values, 95));
        assertEquals(4, SimStats.percentile(values, 80));
        assertTrue(Double.isNaN(SimStats.percentile(new long[0], 50)));
        assertEquals(0.4, SimStats.shareAbove(values, 3), 1e-9);
        assertEquals(1.0, SimStats.jain(new double[] {3, 3, 3}), 1e-9);
        assertEquals(0.25, SimStats.jain(new double[] {8, 0, 0, 0}), 1e-9);
        assertEquals(0.9, SimStats.jain(new double[] {1, 2}), 1e-9); // 9 / (2 × 5)
    }

    @Test
    void virtualTimeRunsEventsInTimeOrder_tiesInSchedulingOrder() {
        VirtualTime time = new VirtualTime();
        List<String> ran = new ArrayList<>();
        time.at(20, () -> ran.add("b@" + time.millis()));
        time.at(10, () -> {
            ran.add("a@" + time.millis());
            time.at(20, () -> ran.add("c@" + time.millis())); // same time as b, scheduled later
        });
        while (time.hasNext()) {
            time.step();
        }
        assertEquals(List.of("a@10", "b@20", "c@20"), ran);
        assertThrows(IllegalArgumentException.class, () -> time.at(19, () -> { }));
    }
}
