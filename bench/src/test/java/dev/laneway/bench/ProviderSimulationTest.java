package dev.laneway.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The provider simulation (issue 16's benchmark) on a smaller load: what it measures holds. */
class ProviderSimulationTest {

    @Test
    void anAdaptivePool_settlesNearTheCapacity_andHitsFar_fewer429sThanIndependentRetries() {
        ProviderSimulation.CapacityOutcome adaptive = ProviderSimulation.capacity(8, 3, true, 300_000);
        ProviderSimulation.CapacityOutcome independent = ProviderSimulation.capacity(8, 3, false, 300_000);
        assertTrue(adaptive.settledMillis < 120_000, "settled at " + adaptive.settledMillis);
        assertTrue(adaptive.tooManyPer1000 <= 10, "429s per 1000 calls once settled: " + adaptive.tooManyPer1000);
        assertTrue(adaptive.utilisation >= 0.85, "utilisation " + adaptive.utilisation);
        assertTrue(independent.tooManyPer1000All > 10 * Math.max(1, adaptive.tooManyPer1000All),
                independent.tooManyPer1000All + " against " + adaptive.tooManyPer1000All);
        assertEquals(adaptive.runs, independent.runs, "the same load for both");
    }

    @Test
    void anOutage_opensTheCircuit_runsFailFastToTheFallback_andItClosesAfterwards() {
        ProviderSimulation.OutageOutcome outcome = ProviderSimulation.outage(3);
        // rate-based (docs/decisions.md D62): failures must reach half of the 60 s window, successes before the outage included
        assertTrue(outcome.openedAt >= ProviderSimulation.OUTAGE_FROM && outcome.openedAt < ProviderSimulation.OUTAGE_FROM + 30_000,
                "opened at " + outcome.openedAt + ": " + outcome.circuit);
        assertTrue(outcome.closedAt >= ProviderSimulation.OUTAGE_TO && outcome.closedAt < ProviderSimulation.OUTAGE_TO + 40_000,
                "closed at " + outcome.closedAt + ": " + outcome.circuit);
        assertTrue(outcome.failedFast > outcome.inOutage / 2, outcome.failedFast + " of " + outcome.inOutage);
        assertTrue(outcome.answeredInBudget >= 0.99, "answered within the budget: " + outcome.answeredInBudget);
    }

    @Test
    void settling_isWhenTheLimitEntersTheBandForGood() {
        List<long[]> limits = List.of(new long[] {1_000, 5}, new long[] {2_000, 14}, new long[] {3_000, 9},
                new long[] {4_000, 13}, new long[] {5_000, 16}, new long[] {6_000, 17});
        assertEquals(4_000, ProviderSimulation.settled(limits, 16));
        assertEquals(Long.MAX_VALUE, ProviderSimulation.settled(List.of(new long[] {1_000, 5}), 16));
    }

    @Test
    void theTableHasBothScenarios() {
        String table = ProviderSimulation.render(1, 1);
        assertTrue(table.contains("| utilisation of the provider's capacity"), table);
        assertTrue(table.contains("| circuit opened at |"), table);
    }
}
