package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.testing.FakeChannel;
import dev.laneway.core.testing.GatewayHarness;
import dev.laneway.core.testing.ScriptedAgent.ScriptedRun;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The mode table of docs/behaviour.md §3.2: every mode, idle and active. */
class QueueModesTest {

    private static GatewayHarness harness(QueueMode mode) {
        return new GatewayHarness(s -> s.queueDefaults(new QueueSettings(mode, Duration.ofSeconds(1), 20,
                dev.laneway.core.DropPolicy.SUMMARIZE)));
    }

    @ParameterizedTest
    @EnumSource(QueueMode.class)
    void idleSession_startsARunNow_inEveryMode(QueueMode mode) {
        GatewayHarness h = harness(mode);
        String id = h.dm("hello");

        assertEquals(List.of("hello"), h.agent.prompts());
        h.agent.run(0).complete("hi there");
        assertEquals(List.of(new FakeChannel.Sent(h.message("x").build().route().replyingTo(id), "hi there")),
                h.channel.sent());
        assertEquals(Disposition.RAN, h.dispositions.of(id));
        assertEquals(0, h.gateway.busySessions());
        assertEquals(0, h.gateway.pendingMessages());
    }

    @Test
    void collect_coalescesQueuedMessagesIntoOneTurn_repliedToTheLastMessage() {
        GatewayHarness h = harness(QueueMode.COLLECT);
        h.dm("first");
        String b = h.dm("second");
        String c = h.dm("third");
        assertEquals(1, h.agent.runs().size(), "no overtaking: queued while the run is active");

        h.agent.run(0).complete("one");
        h.advanceMillis(999);
        assertEquals(1, h.agent.runs().size(), "debounce still pending");
        h.advanceMillis(1);

        assertEquals(2, h.agent.runs().size());
        assertEquals("""
                [Queued messages while agent was busy]

                ---
                Queued #1
                second

                ---
                Queued #2
                third""", h.agent.run(1).prompt());
        assertEquals(c, h.agent.run(1).request().route().replyToMessageId());
        h.agent.run(1).complete("two");
        assertEquals(Disposition.COLLECTED, h.dispositions.of(b));
        assertEquals(Disposition.COLLECTED, h.dispositions.of(c));
        assertEquals(List.of("one", "two"), h.channel.texts());
    }

    @Test
    void collect_inAGroup_namesEachSender_andKeepsTheHeaderForASingleItem() {
        GatewayHarness h = new GatewayHarness(s -> s.commandAllowFrom(java.util.Map.of()));
        h.group("alice", "start");
        h.group("bob", "hi from bob");
        h.group("carol", "hi from carol");
        h.agent.run(0).complete();
        h.advanceMillis(1000);
        assertEquals("""
                [Queued messages while agent was busy]

                ---
                Queued #1 (from Bob)
                hi from bob

                ---
                Queued #2 (from Carol)
                hi from carol""", h.agent.run(1).prompt());

        h.group("dave", "late");
        h.agent.run(1).complete();
        h.advanceMillis(1000);
        assertEquals("""
                [Queued messages while agent was busy]

                ---
                Queued #1 (from Dave)
                late""", h.agent.run(2).prompt());
    }

    @Test
    void followup_givesEachQueuedMessageItsOwnTurn_inArrivalOrder_replyingToItself() {
        GatewayHarness h = harness(QueueMode.FOLLOWUP);
        h.dm("first");
        String b = h.dm("second");
        String c = h.dm("third");
        h.agent.run(0).complete();
        h.advanceMillis(1000);
        assertEquals("second", h.agent.run(1).prompt());
        assertEquals(b, h.agent.run(1).request().route().replyToMessageId());
        h.advance(Duration.ofSeconds(10));
        assertEquals(2, h.agent.runs().size(), "one run at a time: the third waits for the second");
        h.agent.run(1).complete();
        assertEquals("third", h.agent.run(2).prompt());
        assertEquals(c, h.agent.run(2).request().route().replyToMessageId());
        h.agent.run(2).complete();
        assertEquals(Disposition.RAN, h.dispositions.of(b));
        assertEquals(Disposition.RAN, h.dispositions.of(c));
    }

    @Test
    void steer_injectsIntoTheActiveRun() {
        GatewayHarness h = harness(QueueMode.STEER);
        h.dm("first");
        String b = h.dm("also this");
        ScriptedRun run = h.agent.run(0);
        assertEquals(List.of("also this"), run.steerTexts());
        run.seeSteers().complete("done");
        h.advanceMillis(5000);
        assertEquals(1, h.agent.runs().size(), "a seen steer gets no turn of its own");
        assertEquals(Disposition.STEERED, h.dispositions.of(b));
    }

    @Test
    void steer_fallsBackToFollowup_whenTheAgentCannotSteer() {
        GatewayHarness h = harness(QueueMode.STEER);
        h.agent.steerable(false);
        h.dm("first");
        String b = h.dm("second");
        String c = h.dm("third");
        h.agent.run(0).complete();
        h.advanceMillis(1000);
        assertEquals("second", h.agent.run(1).prompt(), "followup, not collect");
        h.agent.run(1).complete();
        h.time.runDue();
        assertEquals("third", h.agent.run(2).prompt());
        h.agent.run(2).complete();
        assertEquals(Disposition.RAN, h.dispositions.of(b));
        assertEquals(Disposition.RAN, h.dispositions.of(c));
    }

    @Test
    void steer_fallsBackToFollowup_whileTheRunWaitsForTheMainLane() {
        GatewayHarness h = new GatewayHarness(s -> s.mainMaxConcurrent(1)
                .queueDefaults(QueueSettings.DEFAULTS.with(dev.laneway.core.QueueOverride.mode(QueueMode.STEER))));
        h.send(h.message("other session").senderId("other").chatId("other"));
        h.dm("mine");
        assertEquals(1, h.agent.runs().size(), "second session waits for main");
        String steer = h.dm("steer me");
        h.agent.run(0).complete();
        assertEquals("mine", h.agent.run(1).prompt());
        assertTrue(h.agent.run(1).steers().isEmpty(), "the run had not started, so it could not be steered");
        h.agent.run(1).complete();
        h.advanceMillis(1000);
        assertEquals("steer me", h.agent.run(2).prompt());
        h.agent.run(2).complete();
        assertEquals(Disposition.RAN, h.dispositions.of(steer));
    }

    @Test
    void steerBacklog_steersNow_andAlsoRunsAFollowupRepliedToThatMessage() {
        GatewayHarness h = harness(QueueMode.STEER_BACKLOG);
        h.dm("first");
        String b = h.dm("more");
        assertEquals(List.of("more"), h.agent.run(0).steerTexts());
        h.agent.run(0).seeSteers().complete("answer");
        h.advanceMillis(1000);
        assertEquals("more", h.agent.run(1).prompt());
        assertEquals(b, h.agent.run(1).request().route().replyToMessageId());
        h.agent.run(1).complete("followup answer");
        assertEquals(Disposition.RAN, h.dispositions.of(b));
        assertEquals(1, h.dispositions.size() - 1, "exactly one disposition for the backlog message");
    }

    @Test
    void steerBacklog_whenTheAgentCannotSteer_becomesOneFollowupTurn_notTwo() {
        GatewayHarness h = harness(QueueMode.STEER_BACKLOG);
        h.agent.steerable(false);
        h.dm("first");
        String b = h.dm("more");
        assertTrue(h.agent.run(0).steers().isEmpty());
        h.agent.run(0).complete("answer");
        h.advanceMillis(1000);
        assertEquals("more", h.agent.run(1).prompt(), "a followup, not a collect batch");
        assertEquals(b, h.agent.run(1).request().route().replyToMessageId());
        h.agent.run(1).complete("followup answer");
        h.advance(Duration.ofSeconds(10));
        assertEquals(2, h.agent.runs().size(), "the message runs once");
        assertEquals(Disposition.RAN, h.dispositions.of(b));
        assertEquals(0, h.gateway.busySessions());
    }

    @Test
    void steerBacklog_whileTheRunWaitsForTheMainLane_becomesOneFollowupTurn() {
        GatewayHarness h = new GatewayHarness(s -> s.mainMaxConcurrent(1)
                .queueDefaults(QueueSettings.DEFAULTS.with(dev.laneway.core.QueueOverride.mode(QueueMode.STEER_BACKLOG))));
        h.send(h.message("other session").senderId("other").chatId("other"));
        h.dm("mine");
        String b = h.dm("more");
        h.agent.run(0).complete();
        assertEquals("mine", h.agent.run(1).prompt());
        assertTrue(h.agent.run(1).steers().isEmpty(), "not started when it arrived, so not steered");
        h.agent.run(1).complete();
        h.advanceMillis(1000);
        assertEquals("more", h.agent.run(2).prompt());
        h.agent.run(2).complete();
        h.advance(Duration.ofSeconds(10));
        assertEquals(3, h.agent.runs().size());
        assertEquals(Disposition.RAN, h.dispositions.of(b));
    }

    @Test
    void interrupt_abortsTheRun_discardsTheQueueWithANoticePerSender_andRunsTheNewMessage() {
        GatewayHarness h = new GatewayHarness();
        h.group("alice", "long task");
        String queued1 = h.group("bob", "queued one");
        String queued2 = h.group("bob", "queued two");
        String queued3 = h.group("carol", "queued three");
        assertFalse(h.agent.run(0).abortRequested(), "collect (the default) does not interrupt");
        h.gateway.setSessionOverride(dev.laneway.core.SessionKey.of("test:group:group"),
                dev.laneway.core.QueueOverride.mode(QueueMode.INTERRUPT));
        String interrupting = h.group("carol", "now this");

        ScriptedRun first = h.agent.run(0);
        assertTrue(first.abortRequested());
        assertEquals("now this", h.agent.run(1).prompt());
        assertEquals(Disposition.INTERRUPTED, h.dispositions.of(queued1));
        assertEquals(Disposition.INTERRUPTED, h.dispositions.of(queued2));
        assertEquals(Disposition.INTERRUPTED, h.dispositions.of(queued3));
        long notices = h.channel.texts().stream()
                .filter("⚠️ Skipped: a newer message interrupted this conversation."::equals).count();
        assertEquals(2, notices, "once per sender (bob, carol), not once per message");
        first.reply("late text from the aborted run");
        assertFalse(h.channel.texts().contains("late text from the aborted run"), "an aborted run sends nothing more");
        h.agent.run(1).complete("fresh");
        assertEquals(Disposition.RAN, h.dispositions.of(interrupting));
    }

    @Test
    void interrupt_whenTheRunIgnoresAbortFor15s_tellsTheSender_andRunsTheMessageWhenTheOldRunExits() {
        GatewayHarness h = harness(QueueMode.INTERRUPT);
        h.agent.completesOnAbort(false);
        h.dm("slow");
        String next = h.dm("new");
        assertTrue(h.agent.run(0).abortRequested());
        assertEquals(1, h.agent.runs().size(), "the new message waits for the old run to exit");

        h.advance(Duration.ofMillis(14_999));
        assertFalse(h.channel.texts().contains("⚠️ Previous run is still shutting down. Please try again in a moment."));
        h.advanceMillis(1);
        assertEquals(List.of("⚠️ Previous run is still shutting down. Please try again in a moment."), h.channel.texts());

        h.advance(Duration.ofSeconds(30));
        assertEquals(1, h.agent.runs().size());
        h.agent.run(0).finishAborted();
        assertEquals("new", h.agent.run(1).prompt(), "not lost: it runs when the old run exits");
        h.agent.run(1).complete();
        assertEquals(Disposition.RAN, h.dispositions.of(next));
    }

    @Test
    void interrupt_thatStopsInTime_sendsNoShutdownNotice() {
        GatewayHarness h = harness(QueueMode.INTERRUPT);
        h.dm("slow");
        h.dm("new");
        h.agent.run(1).complete();
        h.advance(Duration.ofSeconds(20));
        assertFalse(h.channel.texts().stream().anyMatch(t -> t.contains("still shutting down")));
    }
}
