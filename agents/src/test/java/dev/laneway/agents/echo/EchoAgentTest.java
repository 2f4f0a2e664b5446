package dev.laneway.agents.echo;

import static dev.laneway.agents.testing.Runs.isDone;
import static dev.laneway.agents.testing.Runs.outcome;
import static dev.laneway.agents.testing.Runs.request;
import static dev.laneway.agents.testing.Runs.steer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.agents.testing.RecordingEvents;
import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.agent.RunOutcome;
import dev.laneway.core.agent.SteerMessage;
import dev.laneway.core.agent.SteerResult;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class EchoAgentTest {

    private final ManualTime scheduler = new ManualTime();
    private final RecordingEvents events = new RecordingEvents();

    private AgentRun start(Duration delay, String prompt) {
        return new EchoAgent("echo", delay, scheduler).start(request(prompt), events);
    }

    @Test
    void withoutDelay_repliesWithTheExactPromptBeforeStartReturns() {
        AgentRun run = start(Duration.ZERO, "  hello\nworld ");

        assertEquals(List.of("echo:   hello\nworld "), events.replies());
        assertEquals(RunOutcome.Completed.clean(), outcome(run));
    }

    @Test
    void withDelay_repliesOnlyOnceTheDelayHasPassed() {
        AgentRun run = start(Duration.ofSeconds(2), "hi");

        scheduler.advance(Duration.ofMillis(1999));
        assertEquals(List.of(), events.replies());
        assertFalse(isDone(run));

        scheduler.advance(Duration.ofMillis(1));
        assertEquals(List.of("echo: hi"), events.replies());
        assertEquals(RunOutcome.Completed.clean(), outcome(run));
    }

    @Test
    void eachSteerBatch_addsOneReplyAfterTheMainReply() {
        AgentRun run = start(Duration.ofSeconds(1), "first");

        assertEquals(SteerResult.ACCEPTED, run.steer(steer("a", "b")));
        assertEquals(SteerResult.ACCEPTED, run.steer(steer("c")));
        scheduler.advance(Duration.ofSeconds(1));

        assertEquals(List.of("echo: first", "echo: a\nb", "echo: c"), events.replies());
        assertEquals(List.of("", "a|b", "c"), events.answeredSteers(), "each batch's reply answers that batch");
        assertEquals(RunOutcome.Completed.clean(), outcome(run));
    }

    @Test
    void steerAfterCompletion_isRefused() {
        AgentRun run = start(Duration.ZERO, "done");

        assertEquals(SteerResult.REFUSED, run.steer(steer("late")));
        assertEquals(List.of("echo: done"), events.replies());
    }

    @Test
    void abortBeforeTheReply_sendsNothingAndReturnsAcceptedSteersAsUnseen() {
        AgentRun run = start(Duration.ofSeconds(5), "never");
        List<SteerMessage> steered = steer("x", "y");
        run.steer(steered);

        run.abort();
        run.abort();
        scheduler.advance(Duration.ofSeconds(10));

        assertEquals(new RunOutcome.Aborted(steered), outcome(run));
        assertEquals(List.of(), events.replies());
        assertEquals(List.of(), scheduler.pendingDelays());
        assertEquals(SteerResult.REFUSED, run.steer(steer("after abort")));
    }

    @Test
    void abortAfterCompletion_changesNothing() {
        AgentRun run = start(Duration.ZERO, "ok");
        run.abort();

        assertInstanceOf(RunOutcome.Completed.class, outcome(run));
    }

    @Test
    void negativeDelay_isRejectedNamingTheSetting() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new EchoAgent("demo", Duration.ofMillis(-1), scheduler));
        assertTrue(e.getMessage().contains("delayMs"), e.getMessage());
    }
}
