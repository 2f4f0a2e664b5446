package dev.laneway.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class ReportTableTest {

    @Test
    void latencyBelowTheBaseline_isShownAsNoise() {
        assertEquals("within noise (41.9 µs lower)", ReportTable.added(OptionalDouble.of(38.5), OptionalDouble.of(80.4)));
    }

    @Test
    void latencyAboveTheBaseline_isShownAsAdded() {
        assertEquals("+0.9 µs", ReportTable.added(OptionalDouble.of(1.3), OptionalDouble.of(0.4)));
    }

    @Test
    void latencyWithoutBothResults_isADash() {
        assertEquals("—", ReportTable.added(OptionalDouble.of(1.3), OptionalDouble.empty()));
    }

    @Test
    void drainRunsPerInvocation_countTheReleasedRunsAndTheDrainRuns() {
        assertEquals(10_000 + 10_000, DrainBenchmark.runsPerInvocation(dev.laneway.core.QueueMode.COLLECT));
        assertEquals(10_000 + 200_000, DrainBenchmark.runsPerInvocation(dev.laneway.core.QueueMode.FOLLOWUP));
    }
}
