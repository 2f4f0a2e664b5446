package dev.laneway.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The streaming simulation in virtual time: every platform's answer ends whole and within its limits. */
class StreamingSimulationTest {

    @Test
    void everyPlatform_streamsWithinItsLimit_showsTextLongBeforeThePlainAnswer_andEndsAsThePlainAnswer() {
        List<StreamingSimulation.Outcome> outcomes = StreamingSimulation.runAll();
        assertEquals(2 * StreamingSimulation.PLATFORMS.size(), outcomes.size());
        for (int i = 0; i < outcomes.size(); i += 2) {
            StreamingSimulation.Outcome plain = outcomes.get(i);
            StreamingSimulation.Outcome streamed = outcomes.get(i + 1);
            String name = streamed.platform();
            assertTrue(plain.finalEqualsPlain() && streamed.finalEqualsPlain(), name + ": the final messages");
            assertEquals(0, plain.edits(), name);
            assertTrue(streamed.firstVisibleMs() <= 2 * StreamingSimulation.TOKEN_MS,
                    name + ": the first token shows at once, got " + streamed.firstVisibleMs() + " ms");
            assertTrue(plain.firstVisibleMs() >= StreamingSimulation.TOKENS * StreamingSimulation.TOKEN_MS,
                    name + ": the plain answer shows once written");
            assertTrue(streamed.mostInWindow() <= streamed.windowMax(),
                    name + ": " + streamed.mostInWindow() + " calls in " + streamed.window());
            assertTrue(streamed.edits() > 0, name);
            assertTrue(streamed.finalMs() <= plain.finalMs() + 3_000,
                    name + ": streaming holds the final text back by at most one edit interval, got "
                    + streamed.finalMs() + " ms against " + plain.finalMs() + " ms");
        }
        System.out.println(StreamingSimulation.table(outcomes));
    }
}
