package dev.laneway.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The plain idle-run loop the README's build comparisons use: it runs both pipelines and reports sane figures. */
class IdleRunCpuTest {

    @Test
    void aSliceOfEachPipeline_runsEveryMessage_andReportsRateAndCpu() {
        for (String system : List.of("laneway", "bare-virtual")) {
            IdleRunCpu.Slice slice = IdleRunCpu.run(system, 20_000);
            assertTrue(slice.runsPerSecond() > 0 && Double.isFinite(slice.runsPerSecond()), system + ": " + slice);
            assertTrue(slice.cpuMicrosPerRun() >= 0 && Double.isFinite(slice.cpuMicrosPerRun()), system + ": " + slice);
        }
    }

    @Test
    void theMedianIsTheMiddleValue() {
        assertEquals(2.0, IdleRunCpu.median(List.of(3.0, 1.0, 2.0)));
        assertEquals(3.0, IdleRunCpu.median(List.of(4.0, 1.0, 3.0, 2.0)));
    }
}
