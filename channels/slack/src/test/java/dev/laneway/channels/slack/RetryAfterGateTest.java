package dev.laneway.channels.slack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RetryAfterGateTest {

    private final ManualTime time = new ManualTime();
    private final List<Duration> slept = new ArrayList<>();
    private final RetryAfterGate gate = new RetryAfterGate(time, duration -> {
        slept.add(duration);
        time.advance(duration);
    });

    @Test
    void aPausedChannelWaitsOutTheRestOfItsPause_whileOtherChannelsGoAtOnce() throws Exception {
        gate.pause("C1", Duration.ofSeconds(30));
        time.advance(Duration.ofSeconds(10));

        gate.awaitTurn("C2");
        assertEquals(List.of(), slept, "another channel is not held up");

        gate.awaitTurn("C1");
        assertEquals(List.of(Duration.ofSeconds(20)), slept);
        assertFalse(gate.isPaused("C1"));
    }

    @Test
    void aLongerPauseWins_andAPassedPauseCostsNothing() throws Exception {
        gate.pause("C1", Duration.ofSeconds(60));
        gate.pause("C1", Duration.ofSeconds(5));
        assertTrue(gate.isPaused("C1"));
        time.advance(Duration.ofSeconds(61));

        gate.awaitTurn("C1");
        assertEquals(List.of(), slept);
    }

    @Test
    void retryAfterHeader_isSeconds_withASaneDefaultAndCap() {
        assertEquals(Duration.ofSeconds(7), RetryAfterGate.retryAfter("7"));
        assertEquals(Duration.ofSeconds(1), RetryAfterGate.retryAfter(null));
        assertEquals(Duration.ofSeconds(1), RetryAfterGate.retryAfter("soon"));
        assertEquals(Duration.ofMinutes(10), RetryAfterGate.retryAfter("86400"));
    }
}
