package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;

import dev.laneway.core.Disposition;
import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.SessionKey;
import dev.laneway.core.lane.LaneSnapshot;
import dev.laneway.core.testing.GatewayHarness;
import dev.laneway.core.testing.LogCapture;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An agent that throws an {@link Error} (not just a RuntimeException) never holds a lane or loses a
 * message (docs/behaviour.md §2: a failed run never blocks a lane).
 */
class AgentErrorsTest {

    private static final String FAILED_START = "⚠️ Sorry, something went wrong while answering. (agent error: NoClassDefFoundError)";

    private static LaneSnapshot lane(GatewayHarness h, String name) {
        return h.gateway.lanes().stream().filter(l -> l.name().equals(name)).findFirst()
                .orElse(new LaneSnapshot(name, 1, 0, 0));
    }

    @Test
    void anAgentStartThrowingAnError_givesBothLanesBack_repliesWithTheFailure_andTheNextMessageRuns() {
        GatewayHarness h = new GatewayHarness(s -> s.mainMaxConcurrent(1));
        h.agent.throwOnNextStart(new NoClassDefFoundError("com/example/Missing"));
        String first = h.dm("first");
        assertEquals(1, h.agent.failedStarts());
        assertEquals(List.of(FAILED_START), h.channel.texts());
        assertEquals(Disposition.RAN, h.dispositions.of(first));
        assertEquals(0, lane(h, "main").active());
        assertEquals(0, lane(h, "session:test:dm:user").active());
        assertEquals(0, h.gateway.busySessions());

        h.send(h.message("other session").senderId("other").chatId("other"));
        assertEquals(List.of("other session"), h.agent.prompts(), "main is free for the next run");
    }

    @Test
    void aFatalErrorFromTheAgentStart_isLoggedWithItsStackTrace_afterTheLanesAreFreeAndTheUserWasTold() {
        try (LogCapture log = LogCapture.of(AgentCalls.class)) {
            GatewayHarness h = new GatewayHarness(s -> s.mainMaxConcurrent(1));
            h.agent.throwOnNextStart(new StackOverflowError());
            h.dm("deep");
            assertEquals(List.of("⚠️ Sorry, something went wrong while answering. (agent error: StackOverflowError)"),
                    h.channel.texts());
            assertEquals(0, lane(h, "main").active());
            LogCapture.Line logged = log.lines().stream().filter(line -> line.level() == Level.ERROR).findFirst().orElseThrow();
            assertTrue(logged.message().startsWith("agent failed to start run"), logged.message());
            assertTrue(logged.thrown().startsWith(StackOverflowError.class.getName() + ": "), logged.thrown());
            h.dm("next");
            assertEquals(List.of("next"), h.agent.prompts());
        }
    }

    @Test
    void aRunWaitingBehindAFailedStart_startsWhenItsLaneIsFreed() {
        GatewayHarness h = new GatewayHarness(s -> s.mainMaxConcurrent(1));
        h.executor.pause();
        h.agent.throwOnNextStart(new NoClassDefFoundError("x"));
        h.dm("first");
        h.send(h.message("second session").senderId("other").chatId("other"));
        h.executor.resume();
        assertEquals(List.of("second session"), h.agent.prompts());
    }

    @Test
    void aSteerThatThrowsAnError_isRefused_andTheMessageRunsAsAFollowup() {
        GatewayHarness h = new GatewayHarness(s -> s.queueDefaults(
                new QueueSettings(QueueMode.STEER, Duration.ofSeconds(1), 20, DropPolicy.SUMMARIZE)));
        h.agent.steerThrows(new NoClassDefFoundError("x"));
        h.dm("run");
        String steer = h.dm("steer me");
        h.agent.run(0).complete();
        h.advanceMillis(1000);
        assertEquals("steer me", h.agent.run(1).prompt());
        h.agent.run(1).complete();
        assertEquals(Disposition.RAN, h.dispositions.of(steer));
        assertEquals(0, h.gateway.pendingMessages());
    }

    @Test
    void anAbortThatThrowsAnError_stillClearsTheQueue_andTheRunEndsWhenItStops() {
        GatewayHarness h = new GatewayHarness();
        h.agent.completesOnAbort(false).abortThrows(new NoClassDefFoundError("x"));
        h.dm("run");
        String queued = h.dm("queued");
        assertEquals(1, h.gateway.stop(SessionKey.of("test:dm:user")));
        assertEquals(Disposition.STOPPED, h.dispositions.of(queued));
        h.agent.run(0).finishAborted();
        assertEquals(0, h.gateway.busySessions());
        assertEquals(0, lane(h, "main").active());
    }

    @Test
    void aFatalErrorFromTheAgentsName_failsTheRunBeforeItStarts_andGivesBothLanesBack() {
        GatewayHarness h = new GatewayHarness(s -> s.mainMaxConcurrent(1));
        h.agent.throwOnNextName(new StackOverflowError());
        String first = h.dm("first");
        assertEquals(List.of(), h.agent.runs(), "no agent started for it");
        assertEquals(List.of("⚠️ Sorry, something went wrong while answering. (agent error: StackOverflowError)"),
                h.channel.texts());
        assertEquals(Disposition.RAN, h.dispositions.of(first));
        assertEquals(0, lane(h, "main").active());
        assertEquals(0, lane(h, "session:test:dm:user").active());
        assertEquals(0, h.gateway.busySessions());

        h.send(h.message("other session").senderId("other").chatId("other"));
        assertEquals(List.of("other session"), h.agent.prompts(), "main is free for the next run");
    }

    @Test
    void aFatalErrorFromTheAbortOfARunStoppedWhileStarting_isRethrown_afterTheRunIsWiredToItsEnd() {
        GatewayHarness h = new GatewayHarness(s -> s.mainMaxConcurrent(1));
        h.agent.completesOnAbort(false).abortThrows(new StackOverflowError());
        h.executor.pause();
        h.dm("first"); // granted both lanes; its agent start waits on the executor
        assertEquals(0, h.gateway.stop(SessionKey.of("test:dm:user")), "nothing queued to clear");
        assertThrows(StackOverflowError.class, h.executor::resume, "the fatal error is not swallowed");
        assertTrue(h.agent.run(0).abortRequested());

        h.agent.run(0).finishAborted();
        assertEquals(0, lane(h, "main").active(), "the run ended when its agent stopped");
        assertEquals(0, lane(h, "session:test:dm:user").active());
        assertEquals(0, h.gateway.busySessions());
        h.send(h.message("other session").senderId("other").chatId("other"));
        assertEquals("other session", h.agent.lastRun().prompt());
    }
}
