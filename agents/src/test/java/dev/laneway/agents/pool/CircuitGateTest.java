package dev.laneway.agents.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.agent.settings.ProviderSettings;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** resilience4j's breaker on the pool's clock (docs/behaviour.md §14.4, docs/decisions.md D62). */
class CircuitGateTest {

    private final ManualTime time = new ManualTime();
    private final List<CircuitGate.State> moves = new ArrayList<>();
    private final CircuitGate gate = new CircuitGate("p",
            new ProviderSettings.Circuit(3, Duration.ofSeconds(60), Duration.ofSeconds(30)), time, moves::add);

    private void fail(int times) {
        for (int i = 0; i < times; i++) {
            assertTrue(gate.tryAcquire());
            gate.failed(Duration.ofMillis(5));
        }
    }

    @Test
    void itOpensOnceTheWindowHoldsEnoughCallsAndHalfFailed_thenProbesAfterOpenFor() {
        fail(2);
        assertEquals(CircuitGate.State.CLOSED, gate.state(), "2 calls: fewer than the 3 it needs");
        fail(1);
        assertEquals(CircuitGate.State.OPEN, gate.state());
        assertTrue(gate.refusesNow());
        assertFalse(gate.tryAcquire());

        time.advance(Duration.ofSeconds(30).plusMillis(1));
        assertFalse(gate.refusesNow(), "due for its probe");
        assertTrue(gate.tryAcquire(), "the probe");
        assertFalse(gate.tryAcquire(), "one probe at a time");
        gate.succeeded(Duration.ofMillis(5));
        assertEquals(CircuitGate.State.CLOSED, gate.state());
        assertEquals(List.of(CircuitGate.State.OPEN, CircuitGate.State.HALF_OPEN, CircuitGate.State.CLOSED), moves);
    }

    @Test
    void aFailedProbeOpensItAgain() {
        fail(3);
        time.advance(Duration.ofSeconds(31));
        assertTrue(gate.tryAcquire());
        gate.failed(Duration.ofMillis(5));
        assertEquals(CircuitGate.State.OPEN, gate.state());
        assertTrue(gate.refusesNow());
    }

    @Test
    void oldFailuresLeaveTheWindow_andSuccessesKeepItClosed() {
        fail(2);
        time.advance(Duration.ofSeconds(61));
        for (int i = 0; i < 3; i++) {
            assertTrue(gate.tryAcquire());
            gate.succeeded(Duration.ofMillis(5));
        }
        fail(2);
        assertEquals(CircuitGate.State.CLOSED, gate.state(), "2 failed of 5 in the window: under half");
    }

    @Test
    void aReleasedPermissionCountsForNothing_andFailuresZeroTurnsItOff() {
        for (int i = 0; i < 10; i++) {
            assertTrue(gate.tryAcquire());
            gate.released();
        }
        assertEquals(CircuitGate.State.CLOSED, gate.state());
        CircuitGate off = new CircuitGate("off", ProviderSettings.Circuit.OFF, time, moves::add);
        for (int i = 0; i < 100; i++) {
            assertTrue(off.tryAcquire());
            off.failed(Duration.ZERO);
        }
        assertFalse(off.refusesNow());
    }
}
