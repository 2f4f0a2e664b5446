package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueOverride;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.SessionKey;
import dev.laneway.core.lane.LaneSnapshot;
import dev.laneway.core.testing.GatewayHarness;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What interrupt and /stop tell the user (docs/behaviour.md §3.4 and §6.4): the skip notice once per sender,
 * nothing more from an aborted run, drop notices even when the queue is cleared first, and an
 * honest cleared count.
 */
class InterruptStopNoticesTest {

    private static final String SKIPPED = "⚠️ Skipped: a newer message interrupted this conversation.";
    private static final SessionKey USER = SessionKey.of("test:dm:user");

    private static long count(GatewayHarness h, String text) {
        return h.channel.texts().stream().filter(text::equals).count();
    }

    private static LaneSnapshot main(GatewayHarness h) {
        return h.gateway.lanes().stream().filter(l -> l.name().equals("main")).findFirst().orElseThrow();
    }

    @Test
    void interrupt_whileTheRunWaitsForALane_tellsTheSenderOnce_andRunsTheNewMessage() {
        GatewayHarness h = new GatewayHarness(s -> s.mainMaxConcurrent(1));
        h.send(h.message("other").senderId("other").chatId("other"));
        String waiting = h.dm("m1 waits for main");
        String queued = h.dm("m2 queued");
        h.gateway.setSessionOverride(USER, QueueOverride.mode(QueueMode.INTERRUPT));
        String interrupting = h.dm("m3 interrupts");

        assertEquals(Disposition.INTERRUPTED, h.dispositions.of(waiting));
        assertEquals(Disposition.INTERRUPTED, h.dispositions.of(queued));
        assertEquals(1, count(h, SKIPPED), "once per sender: " + h.channel.texts());
        assertEquals(1, h.agent.runs().size(), "the new message waits for main like the old one did");
        h.agent.run(0).complete();
        assertEquals("m3 interrupts", h.agent.run(1).prompt());
        h.agent.run(1).complete();
        assertEquals(Disposition.RAN, h.dispositions.of(interrupting));
        assertEquals(0, main(h).active());
        assertEquals(0, h.gateway.pendingMessages());
    }

    @Test
    void interrupt_ofARunHoldingAnUnseenSteer_andAQueuedMessageOfTheSameSender_tellsThemOnce() {
        GatewayHarness h = new GatewayHarness(s -> s.queueDefaults(
                new QueueSettings(QueueMode.STEER, Duration.ofSeconds(1), 20, DropPolicy.SUMMARIZE)));
        h.dm("run");
        String steered = h.dm("steer, never seen");
        h.gateway.setSessionOverride(USER, QueueOverride.mode(QueueMode.FOLLOWUP));
        String queued = h.dm("queued");
        h.gateway.setSessionOverride(USER, QueueOverride.mode(QueueMode.INTERRUPT));
        h.dm("interrupt");

        assertEquals(Disposition.INTERRUPTED, h.dispositions.of(steered));
        assertEquals(Disposition.INTERRUPTED, h.dispositions.of(queued));
        assertEquals(1, count(h, SKIPPED), h.channel.texts().toString());
        assertEquals("interrupt", h.agent.run(1).prompt());
    }

    @Test
    void aSecondInterrupt_whileTheFirstRunIsStillShuttingDown_tellsTheSenderWhoseInterruptWasSkipped() {
        GatewayHarness h = new GatewayHarness();
        h.agent.completesOnAbort(false);
        h.dm("slow run");
        h.dm("queued");
        h.gateway.setSessionOverride(USER, QueueOverride.mode(QueueMode.INTERRUPT));
        String first = h.dm("first interrupt");
        assertEquals(1, count(h, SKIPPED), "the queued message was skipped");
        h.dm("second interrupt");
        assertEquals(Disposition.INTERRUPTED, h.dispositions.of(first));
        assertEquals(2, count(h, SKIPPED), "the first interrupt was skipped too: a new interruption, a new notice");
        h.agent.run(0).finishAborted();
        assertEquals("second interrupt", h.agent.run(1).prompt());
    }

    @Test
    void interrupt_duringAPendingDrain_discardsTheQueue_andRunsTheNewMessageAtOnce() {
        GatewayHarness h = new GatewayHarness();
        h.group("alice", "run");
        String a = h.group("alice", "queued a");
        String b = h.group("bob", "queued b");
        h.agent.run(0).complete();
        h.advanceMillis(500);
        assertEquals(1, h.agent.runs().size(), "the drain is still debouncing");
        h.gateway.setSessionOverride(SessionKey.of("test:group:group"), QueueOverride.mode(QueueMode.INTERRUPT));
        String now = h.group("carol", "now");

        assertEquals(2, h.agent.runs().size(), "no wait for the debounce: the queue it waited for is gone");
        assertEquals("now", h.agent.run(1).prompt());
        assertEquals(Disposition.INTERRUPTED, h.dispositions.of(a));
        assertEquals(Disposition.INTERRUPTED, h.dispositions.of(b));
        assertEquals(2, count(h, SKIPPED), "alice and bob, once each");
        h.advance(Duration.ofSeconds(20));
        assertEquals(2, h.agent.runs().size(), "the old drain timer starts nothing");
        h.agent.run(1).complete();
        assertEquals(Disposition.RAN, h.dispositions.of(now));
        assertEquals(0, h.gateway.busySessions());
    }

    @Test
    void aStoppedRun_thatThenFails_sendsNoFailureNotice() {
        GatewayHarness h = new GatewayHarness();
        h.agent.completesOnAbort(false);
        h.dm("question");
        h.gateway.stop(USER);
        h.agent.run(0).fail("network error", false);
        assertEquals(List.of(), h.channel.texts(), "an aborted run sends nothing more");
        assertEquals(0, h.gateway.busySessions());
    }

    @Test
    void anInterruptedRun_thatThenFails_sendsNoFailureNotice_andTheNewMessageRuns() {
        GatewayHarness h = new GatewayHarness(s -> s.queueDefaults(
                new QueueSettings(QueueMode.INTERRUPT, Duration.ofSeconds(1), 20, DropPolicy.SUMMARIZE)));
        h.agent.completesOnAbort(false);
        h.dm("old");
        h.dm("new");
        h.agent.run(0).fail("network error", true);
        assertFalse(h.channel.texts().stream().anyMatch(t -> t.contains("network error")), h.channel.texts().toString());
        assertEquals("new", h.agent.run(1).prompt(), "not retried: the next message runs");
    }

    @Test
    void dropNotices_areSentWhenStopClearsTheQueueBeforeTheDrain() {
        GatewayHarness h = new GatewayHarness(s -> s.queueDefaults(
                new QueueSettings(QueueMode.COLLECT, Duration.ofSeconds(1), 2, DropPolicy.SUMMARIZE)));
        h.dm("run");
        h.dm("a");
        h.dm("b");
        h.dm("c");
        assertEquals(2, h.gateway.stop(USER), "b and c; a was summarized before the stop");
        assertEquals(List.of("⚠️ Queue full (cap 2): 1 older message(s) were dropped."), h.channel.texts(),
                "the summary will not run any more, so it is reported as dropped");
    }

    @Test
    void dropNotices_areSentWhenAnInterruptClearsTheQueueBeforeTheDrain_besideTheSkipNotices() {
        // no per-sender part: bob's older message is the one dropped (with it, carol's own would be)
        GatewayHarness h = new GatewayHarness(s -> s.queueCapPerSender(0).queueDefaults(
                new QueueSettings(QueueMode.COLLECT, Duration.ofSeconds(1), 2, DropPolicy.OLD)));
        h.group("alice", "run");
        h.group("bob", "bob, dropped");
        h.group("carol", "carol one");
        h.group("carol", "carol two");
        h.gateway.setSessionOverride(SessionKey.of("test:group:group"), QueueOverride.mode(QueueMode.INTERRUPT));
        h.group("dave", "now");
        List<String> toBob = h.channel.sent().stream()
                .filter(sent -> sent.route().replyToMessageId().equals("m2")).map(sent -> sent.text()).toList();
        assertEquals(List.of("⚠️ Queue full (cap 2): 1 older message(s) were dropped."), toBob);
        assertEquals(1, count(h, SKIPPED), "carol's two queued messages: one notice");
    }

    @Test
    void stop_doesNotCountASteerTheModelSawAndTheRunAnswered() {
        GatewayHarness h = new GatewayHarness(s -> s.queueDefaults(
                new QueueSettings(QueueMode.STEER, Duration.ofSeconds(1), 20, DropPolicy.SUMMARIZE)));
        h.dm("run");
        String steered = h.dm("steer");
        h.agent.run(0).seeSteers().reply("answer that used the steer");
        assertEquals(0, h.gateway.stop(USER));
        assertEquals(Disposition.STEERED, h.dispositions.of(steered));
    }

    @Test
    void stop_countsASteerOfARunThatHadAnsweredNothing_asCleared() {
        GatewayHarness h = new GatewayHarness(s -> s.queueDefaults(
                new QueueSettings(QueueMode.STEER, Duration.ofSeconds(1), 20, DropPolicy.SUMMARIZE)));
        h.dm("run");
        String steered = h.dm("steer");
        h.agent.run(0).seeSteers();
        assertEquals(1, h.gateway.stop(USER));
        assertEquals(Disposition.STOPPED, h.dispositions.of(steered));
        assertEquals(0, h.gateway.pendingMessages());
    }

    @Test
    void stop_countsABacklogSteerOnce() {
        GatewayHarness h = new GatewayHarness(s -> s.queueDefaults(
                new QueueSettings(QueueMode.STEER_BACKLOG, Duration.ofSeconds(1), 20, DropPolicy.SUMMARIZE)));
        h.dm("run");
        String backlog = h.dm("steered and kept");
        assertEquals(1, h.gateway.stop(USER));
        assertEquals(Disposition.STOPPED, h.dispositions.of(backlog));
        assertTrue(h.agent.run(0).abortRequested());
    }
}
