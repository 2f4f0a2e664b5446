package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.SessionKey;
import dev.laneway.core.SessionScope;
import dev.laneway.core.SteerScope;
import dev.laneway.core.testing.GatewayHarness;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Steering details (docs/behaviour.md §4) and /stop (§6.4). */
class SteerAndStopTest {

    private static QueueSettings steer() {
        return new QueueSettings(QueueMode.STEER, Duration.ofSeconds(1), 20, DropPolicy.SUMMARIZE);
    }

    @Test
    void steerUnseenByTheModel_whenTheRunFails_isRequeuedAsAFollowupAtItsOriginalPosition() {
        GatewayHarness h = new GatewayHarness(s -> s.queueDefaults(steer()).failureRetries(0));
        h.dm("run");
        String steered = h.dm("steer text");
        assertEquals(List.of("steer text"), h.agent.run(0).steerTexts());
        h.gateway.setSessionOverride(SessionKey.of("test:dm:user"), dev.laneway.core.QueueOverride.mode(QueueMode.FOLLOWUP));
        String later = h.dm("later");
        h.agent.run(0).fail("timeout", false);
        assertEquals(List.of("⚠️ Sorry, something went wrong while answering. (timeout)"), h.channel.texts());
        h.advanceMillis(1000);
        assertEquals("steer text", h.agent.run(1).prompt(), "back at its original position, before 'later'");
        h.agent.run(1).complete();
        assertEquals("later", h.agent.run(2).prompt());
        h.agent.run(2).complete();
        assertEquals(Disposition.RAN, h.dispositions.of(steered));
        assertEquals(Disposition.RAN, h.dispositions.of(later));
    }

    @Test
    void severalSteersBeforeOneBoundary_areDeliveredInArrivalOrder() {
        GatewayHarness h = new GatewayHarness(s -> s.queueDefaults(steer()));
        h.dm("run");
        h.dm("one");
        h.dm("two");
        assertEquals(List.of("one", "two"), h.agent.run(0).steerTexts());
    }

    @Test
    void steerScopeSender_onlyTheRunsOwnSenderSteers_othersBecomeFollowups() {
        GatewayHarness h = new GatewayHarness(s -> s.queueDefaults(steer()).steerScope(SteerScope.SENDER));
        h.group("alice", "run");
        h.group("alice", "alice steers");
        String bob = h.group("bob", "bob waits");
        assertEquals(List.of("alice steers"), h.agent.run(0).steerTexts());
        h.agent.run(0).seeSteers().complete();
        h.advanceMillis(1000);
        assertEquals("bob waits", h.agent.run(1).prompt());
        h.agent.run(1).complete();
        assertEquals(Disposition.RAN, h.dispositions.of(bob));
    }

    @Test
    void stop_abortsTheRunAndClearsTheQueue_reportingHowManyWereCleared() {
        GatewayHarness h = new GatewayHarness();
        String run = h.dm("run");
        String a = h.dm("a");
        String b = h.dm("b");
        int cleared = h.gateway.stop(SessionKey.of("test:dm:user"));
        assertEquals(2, cleared);
        assertTrue(h.agent.run(0).abortRequested());
        assertEquals(Disposition.STOPPED, h.dispositions.of(a));
        assertEquals(Disposition.STOPPED, h.dispositions.of(b));
        assertEquals(Disposition.RAN, h.dispositions.of(run));
        h.advance(Duration.ofSeconds(5));
        assertEquals(1, h.agent.runs().size(), "nothing runs after /stop");
        assertEquals(0, h.gateway.busySessions());
        assertEquals(0, h.gateway.pendingMessages());
    }

    @Test
    void stop_onAnIdleSession_clearsNothing() {
        GatewayHarness h = new GatewayHarness();
        assertEquals(0, h.gateway.stop(SessionKey.of("test:dm:user")));
    }

    @Test
    void stop_countsARunThatWasStillWaitingForTheMainLane() {
        GatewayHarness h = new GatewayHarness(s -> s.mainMaxConcurrent(1));
        h.send(h.message("other").senderId("other").chatId("other"));
        String waiting = h.dm("waiting");
        assertEquals(1, h.gateway.stop(SessionKey.of("test:dm:user")));
        assertEquals(Disposition.STOPPED, h.dispositions.of(waiting));
        h.agent.run(0).complete();
        assertEquals(1, h.agent.runs().size(), "the stopped run never starts");
        assertEquals(0, h.gateway.lanes().stream().filter(l -> l.name().equals("main")).findFirst().orElseThrow().active());
    }

    @Test
    void aSteerTheModelSaw_inARunThatFailedWithoutAnswering_getsItsOwnTurn() {
        GatewayHarness h = new GatewayHarness(s -> s.queueDefaults(steer()));
        h.dm("run");
        String steered = h.dm("steer text");
        h.agent.run(0).seeSteers().fail("timeout", true);
        h.advanceMillis(1000);
        assertEquals("run", h.agent.run(1).prompt(), "the retry starts from the original prompt");
        h.agent.run(1).complete("answer");
        h.advanceMillis(1000);
        assertEquals("steer text", h.agent.run(2).prompt(), "the steer was never answered, so it runs again");
        h.agent.run(2).complete("steer answer");
        assertEquals(Disposition.RAN, h.dispositions.of(steered));
    }

    @Test
    void stop_duringARetryBackoff_endsTheRunAsStopped_andCountsIt() {
        GatewayHarness h = new GatewayHarness();
        String id = h.dm("question");
        h.agent.run(0).fail("HTTP 503", true);
        assertEquals(1, h.gateway.stop(SessionKey.of("test:dm:user")));
        assertEquals(Disposition.STOPPED, h.dispositions.of(id));
        h.advance(Duration.ofSeconds(10));
        assertEquals(1, h.agent.runs().size(), "no retry after /stop");
    }

    @Test
    void steer_aGuestsMessage_neverSteersAnAdminsRun_itRunsAsAFollowupOfItsOwn() {
        GatewayHarness h = new GatewayHarness(s -> s.queueDefaults(steer()));
        groupMessage(h, "admin", true, "admin run");
        String guest = groupMessage(h, "guest", false, "guest text");
        String admin = groupMessage(h, "admin2", true, "admin steer");
        assertEquals(List.of("admin steer"), h.agent.run(0).steerTexts(), "only the admin's equal steers");
        h.agent.run(0).seeSteers().complete("done");
        h.advanceMillis(1000);
        assertEquals("guest text", h.agent.run(1).prompt());
        assertEquals("guest", h.agent.run(1).request().senderId(), "the guest's turn, with the guest's authority");
        h.agent.run(1).complete();
        assertEquals(Disposition.STEERED, h.dispositions.of(admin));
        assertEquals(Disposition.RAN, h.dispositions.of(guest));
    }

    @Test
    void steerBacklog_aMessageOfOtherAuthority_isNotSteered_andRunsOnceAsAFollowup() {
        GatewayHarness h = new GatewayHarness(s -> s.queueDefaults(
                new QueueSettings(QueueMode.STEER_BACKLOG, Duration.ofSeconds(1), 20, DropPolicy.SUMMARIZE)));
        groupMessage(h, "guest", false, "guest run");
        String admin = groupMessage(h, "admin", true, "admin text");
        assertEquals(List.of(), h.agent.run(0).steerTexts());
        h.agent.run(0).complete("done");
        h.advanceMillis(1000);
        assertEquals("admin text", h.agent.run(1).prompt());
        h.agent.run(1).complete();
        h.advance(Duration.ofSeconds(5));
        assertEquals(2, h.agent.runs().size(), "one followup turn, no second copy");
        assertEquals(Disposition.RAN, h.dispositions.of(admin));
    }

    @Test
    void steer_withGroupScopeChat_aMessageFromAnotherThread_neverSteersTheRun_itIsAnsweredInItsOwnThread() {
        GatewayHarness h = new GatewayHarness(s -> s.queueDefaults(steer())
                .sessionScope(new SessionScope(SessionScope.DmScope.PER_PEER, SessionScope.GroupScope.CHAT)));
        h.send(h.message("thread one asks").direct(false).chatId("group").threadId("t1").senderId("alice"));
        String other = h.send(h.message("thread two asks").direct(false).chatId("group").threadId("t2").senderId("bob"));
        String same = h.send(h.message("thread one adds").direct(false).chatId("group").threadId("t1").senderId("carol"));
        assertEquals(List.of("thread one adds"), h.agent.run(0).steerTexts());

        h.agent.run(0).seeSteers().complete("answer in t1");
        h.advanceMillis(1000);
        assertEquals("thread two asks", h.agent.run(1).prompt());
        h.agent.run(1).complete("answer in t2");
        assertEquals(List.of("t1", "t2"), h.channel.sent().stream().map(sent -> sent.route().threadId()).toList());
        assertEquals(Disposition.STEERED, h.dispositions.of(same));
        assertEquals(Disposition.RAN, h.dispositions.of(other));
    }

    /** A group message; {@code admin}: the platform reports the sender as a group admin (trusted). */
    private static String groupMessage(GatewayHarness h, String senderId, boolean admin, String text) {
        return h.send(h.message(text).direct(false).chatId("group").senderId(senderId).senderName(senderId)
                .senderIsAdmin(admin));
    }
}
