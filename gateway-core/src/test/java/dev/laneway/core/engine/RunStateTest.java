package dev.laneway.core.engine;

import dev.laneway.core.scheduling.Claim;
import dev.laneway.core.scheduling.PriorityClass;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueSettings;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The run's state machine ({@link Run.State}): every legal move of its table can be driven through
 * {@link Run#moveTo}, every other one throws and leaves the state alone, and the abort and end
 * steps take the moves the class comment promises.
 */
class RunStateTest {

    private static Run newRun() {
        InboundMessage message = InboundMessage.builder("test").senderId("u").chatId("u").text("hi")
                .platformMessageId("m1").receivedAt(Instant.EPOCH).build();
        QueueSettings settings = QueueSettings.DEFAULTS;
        QueuedItem item = new QueuedItem(1, List.of(new Ticket(1, message, false)), "hi", settings, settings.mode(), true);
        return new Run("r1", Turn.alone(item), Instant.EPOCH,
                new Claim(PriorityClass.INTERACTIVE, "user:test:user", "test:dm:user"));
    }

    /** A run brought to {@code target} by legal moves only (breadth-first over the table from WAITING). */
    private static Run runIn(Run.State target) {
        Deque<List<Run.State>> paths = new ArrayDeque<>();
        paths.add(List.of(Run.State.WAITING));
        Set<Run.State> seen = EnumSet.of(Run.State.WAITING);
        while (!paths.isEmpty()) {
            List<Run.State> path = paths.poll();
            Run.State last = path.get(path.size() - 1);
            if (last == target) {
                Run run = newRun();
                path.subList(1, path.size()).forEach(run::moveTo);
                assertEquals(target, run.state());
                return run;
            }
            for (Run.State next : Run.State.values()) {
                if (last.canMoveTo(next) && seen.add(next)) {
                    List<Run.State> longer = new ArrayList<>(path);
                    longer.add(next);
                    paths.add(longer);
                }
            }
        }
        throw new AssertionError(target + " cannot be reached from WAITING");
    }

    @Test
    void everyLegalMoveOfTheTable_isTaken_andEveryOtherThrows() {
        int legal = 0;
        for (Run.State from : Run.State.values()) {
            for (Run.State to : Run.State.values()) {
                Run run = runIn(from);
                if (from.canMoveTo(to)) {
                    run.moveTo(to);
                    assertEquals(to, run.state(), from + " -> " + to);
                    legal++;
                } else {
                    IllegalStateException e = assertThrows(IllegalStateException.class, () -> run.moveTo(to));
                    assertEquals("run r1: illegal transition from " + from + " to " + to, e.getMessage());
                    assertEquals(from, run.state(), "an illegal move changes nothing");
                }
            }
        }
        assertEquals(18, legal, "the table's size");
    }

    @Test
    void anEndedRunMovesNowhere() {
        for (Run.State to : Run.State.values()) {
            assertFalse(Run.State.ENDED.canMoveTo(to));
            assertFalse(Run.State.ABORTED.canMoveTo(to));
        }
        Run run = runIn(Run.State.ENDED);
        assertThrows(IllegalStateException.class, () -> run.moveTo(Run.State.WAITING));
    }

    @Test
    void aShutdownAbortOfARunningRun_stillDelivers_untilALaterInterruptSilencesIt_keepingTheFirstCause() {
        Run run = runIn(Run.State.RUNNING);
        run.abort(Run.AbortCause.SHUTDOWN);
        assertEquals(Run.State.SHUTTING_DOWN, run.state());
        assertFalse(run.silenced());
        run.abort(Run.AbortCause.SHUTDOWN);
        assertEquals(Run.State.SHUTTING_DOWN, run.state(), "asked again: no move");
        run.abort(Run.AbortCause.INTERRUPT);
        assertEquals(Run.State.ABORTING, run.state());
        assertTrue(run.silenced());
        assertEquals(Run.AbortCause.SHUTDOWN, run.abortCause, "set once, by the first abort");
        run.end();
        assertEquals(Run.State.ABORTED, run.state());
        assertTrue(run.silenced(), "its agent's late events stay dropped");
    }

    @Test
    void anInterruptOfAWaitingRun_silencesIt_andItsEndIsAborted() {
        Run run = newRun();
        run.abort(Run.AbortCause.INTERRUPT);
        assertEquals(Run.State.ABORTING, run.state());
        run.abort(Run.AbortCause.STOP);
        assertEquals(Run.AbortCause.INTERRUPT, run.abortCause);
        run.end();
        assertEquals(Run.State.ABORTED, run.state());
    }

    @Test
    void aShutdownOfAWaitingRun_leavesItToEnd_unsilenced() {
        Run run = newRun();
        run.abort(Run.AbortCause.SHUTDOWN);
        assertEquals(Run.State.WAITING, run.state());
        run.end();
        assertEquals(Run.State.ENDED, run.state());
        assertFalse(run.silenced());
    }

    @Test
    void abortingAnEndedRun_throws() {
        Run run = runIn(Run.State.ENDED);
        assertThrows(IllegalStateException.class, () -> run.abort(Run.AbortCause.STOP));
        Run done = runIn(Run.State.RUNNING);
        done.end();
        assertThrows(IllegalStateException.class, done::end, "a run ends once");
    }
}
