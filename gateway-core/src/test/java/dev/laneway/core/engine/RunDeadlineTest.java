package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.lane.LaneSnapshot;
import dev.laneway.core.lane.Lanes;
import dev.laneway.core.testing.GatewayHarness;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every run has a deadline, its agent's run timeout from the moment it starts: a run still going then
 * (a model that sends only keep-alives, text that never ends, an agent that ignores abort) is aborted
 * and ended at once, both lane slots are freed, and the user gets the failure notice.
 */
class RunDeadlineTest {

    private static final String TIMED_OUT = "⚠️ Sorry, something went wrong while answering. (timed out after 5 min)";

    private static QueueSettings mode(QueueMode mode) {
        return new QueueSettings(mode, Duration.ofSeconds(1), 20, DropPolicy.SUMMARIZE);
    }

    /** Slots in use in lane {@code name} (an idle session's lane may be gone altogether). */
    private static int active(GatewayHarness h, String name) {
        return h.gateway.lanes().stream().filter(lane -> lane.name().equals(name)).mapToInt(LaneSnapshot::active).sum();
    }

    @Test
    void aRunThatNeverEnds_isAbortedAtItsDeadline_freesBothSlots_andTheUserIsTold() {
        GatewayHarness h = new GatewayHarness(s -> s.mainMaxConcurrent(1));
        h.agent.completesOnAbort(false); // ignores abort too, like a stream of keep-alives nobody cuts
        String stuck = h.dm("never ends");
        h.send(h.message("another chat").chatId("other").senderId("other"));
        assertEquals(1, h.agent.runs().size(), "the other chat waits for the one main slot");

        h.advance(Duration.ofMinutes(5).minusMillis(1));
        assertFalse(h.agent.run(0).abortRequested());
        assertEquals(List.of(), h.channel.texts());

        h.advanceMillis(1);
        assertTrue(h.agent.run(0).abortRequested());
        assertEquals(List.of(TIMED_OUT), h.channel.textsTo("chat"));
        assertEquals(Disposition.RAN, h.dispositions.of(stuck));
        assertEquals(2, h.agent.runs().size(), "the main slot went to the waiting chat");
        assertEquals(1, active(h, Lanes.MAIN), "held by the other chat's run only");
        assertEquals(0, active(h, "session:test:dm:user"), "the stuck session's lane slot is free");

        h.dm("again");
        assertEquals(2, h.agent.runs().size(), "it waits for main (held by the other chat), not for the stuck run");
        // the run that held main for 5 min moved the observed run time up: over the 30 s budget, so told (§11.3)
        String deferred = "⏳ Busy right now: you are #1 in line, about 42 s.";
        assertEquals(List.of(TIMED_OUT, deferred), h.channel.textsTo("chat"));
        h.agent.run(1).complete("done");
        assertEquals("again", h.agent.run(2).prompt());

        h.agent.run(0).finishAborted(); // the agent stops at last: nothing more happens
        h.agent.run(0).reply("too late");
        assertEquals(List.of(TIMED_OUT, deferred), h.channel.textsTo("chat"));
    }

    @Test
    void aRunThatEndsInTime_isNotCutLater() {
        GatewayHarness h = new GatewayHarness();
        h.dm("quick");
        h.advance(Duration.ofMinutes(4));
        h.agent.run(0).complete("answer");
        h.advance(Duration.ofMinutes(10));
        assertEquals(List.of("answer"), h.channel.texts());
        assertFalse(h.agent.run(0).abortRequested());
    }

    @Test
    void theDeadlineIsTheAgents_andCountsFromTheRunsStart_notFromItsWaitForALane() {
        GatewayHarness h = new GatewayHarness(s -> s.mainMaxConcurrent(1));
        h.agent.runTimeout(Duration.ofSeconds(90));
        h.dm("first");
        h.send(h.message("second").chatId("other").senderId("other"));
        h.advance(Duration.ofSeconds(60));
        h.agent.run(0).complete("1");
        assertEquals("second", h.agent.run(1).prompt(), "started 60 s after it arrived");
        h.advance(Duration.ofSeconds(89));
        assertFalse(h.agent.run(1).abortRequested());
        h.advance(Duration.ofSeconds(1));
        assertTrue(h.agent.run(1).abortRequested());
        assertEquals(List.of("⚠️ Sorry, something went wrong while answering. (timed out after 90 s)"),
                h.channel.textsTo("other"));
    }

    @Test
    void aTimedOutRunIsNotRetried_andItsUnansweredSteersRunAsFollowups() {
        GatewayHarness h = new GatewayHarness(s -> s.queueDefaults(mode(QueueMode.STEER)));
        h.agent.completesOnAbort(false);
        h.dm("never ends");
        String steer = h.dm("a steer");
        assertEquals(List.of("a steer"), h.agent.run(0).steerTexts());
        h.advance(Duration.ofMinutes(5));
        assertEquals(List.of(TIMED_OUT), h.channel.texts());
        h.advance(Duration.ofSeconds(1));
        assertEquals(2, h.agent.runs().size());
        assertEquals("a steer", h.agent.run(1).prompt(), "the steer runs on its own; the timed-out turn does not run again");
        h.agent.run(1).complete("answer");
        assertEquals(Disposition.RAN, h.dispositions.of(steer));
    }

    @Test
    void anInterruptedRunThatIgnoresItsAbort_endsAtItsDeadline_andTheInterruptingMessageRuns() {
        GatewayHarness h = new GatewayHarness(s -> s.queueDefaults(mode(QueueMode.INTERRUPT)));
        h.agent.completesOnAbort(false);
        h.dm("old");
        h.dm("new");
        h.advance(Duration.ofSeconds(15));
        assertEquals(List.of(Notices.STILL_SHUTTING_DOWN), h.channel.texts());
        h.advance(Duration.ofMinutes(5).minusSeconds(15));
        assertEquals(List.of(Notices.STILL_SHUTTING_DOWN), h.channel.texts(), "an interrupted run fails no one");
        assertEquals(List.of("old", "new"), h.agent.prompts(), "the interrupting message runs at last");
    }
}
