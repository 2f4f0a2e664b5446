package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueOverride;
import dev.laneway.core.SessionKey;
import dev.laneway.core.engine.SessionQueue.State;
import dev.laneway.core.testing.GatewayHarness;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The session's state machine ({@link SessionQueue.State}): every legal move of its table is taken,
 * every other one throws, staying is no move, and every state can be reached from IDLE. That the
 * state agrees with the session's fields after every locked step is asserted by the session itself
 * (its {@code checkState}, on whenever assertions are, so in every engine test and in
 * {@link QueueInvariantsPropertyTest}'s random interleavings).
 */
class SessionStateTest {

    private static final SessionKey KEY = SessionKey.of("test:dm:user");

    @Test
    void everyLegalMoveOfTheTable_isTaken_andEveryOtherThrows() {
        int legal = 0;
        for (State from : State.values()) {
            for (State to : State.values()) {
                if (from == to) {
                    assertEquals(to, from.moveTo(to, KEY), "staying is no move");
                } else if (from.canMoveTo(to)) {
                    assertEquals(to, from.moveTo(to, KEY));
                    legal++;
                } else {
                    IllegalStateException e = assertThrows(IllegalStateException.class, () -> from.moveTo(to, KEY));
                    assertEquals("session test:dm:user: illegal transition from " + from + " to " + to, e.getMessage());
                }
            }
        }
        assertEquals(16, legal, "the table's size");
    }

    @Test
    void everyStateIsReachableFromIdle_andARetiredSessionMovesNowhere() {
        Set<State> reached = EnumSet.of(State.IDLE);
        boolean grew = true;
        while (grew) {
            grew = false;
            for (State from : EnumSet.copyOf(reached)) {
                for (State to : State.values()) {
                    if (from.canMoveTo(to)) {
                        grew |= reached.add(to);
                    }
                }
            }
        }
        assertEquals(EnumSet.allOf(State.class), reached);
        for (State to : State.values()) {
            assertFalse(State.RETIRED.canMoveTo(to));
        }
    }

    @Test
    void theStatusNameIsTheLowerCaseName_andAnInterruptingSessionCountsAsRunning() {
        assertEquals("running", State.INTERRUPTING.id());
        assertEquals("running", State.RUNNING.id());
        assertEquals("draining", State.DRAINING.id());
        assertEquals("debouncing", State.DEBOUNCING.id());
    }

    @Test
    void aSessionWhoseRunIsBeingInterrupted_reportsAsRunning_asItAlwaysDid() {
        GatewayHarness h = new GatewayHarness(s -> s);
        h.agent.completesOnAbort(false);
        h.dm("first");
        h.gateway.setSessionOverride(KEY, QueueOverride.mode(QueueMode.INTERRUPT));
        h.dm("second interrupts");
        assertEquals(Map.of("running", 1), h.gateway.sessionStates(), "interrupting, its run still active");
        h.agent.run(0).complete();
        assertEquals("second interrupts", h.agent.run(1).prompt());
        assertEquals(Map.of("running", 1), h.gateway.sessionStates());
        h.agent.run(1).complete();
        assertEquals(Map.of(), h.gateway.sessionStates(), "retired");
    }
}
