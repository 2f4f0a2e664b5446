package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.testing.GatewayHarness;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Dedupe, access policy and the global admission cap (docs/behaviour.md §8). */
class AdmissionAndAccessTest {

    @Test
    void aRedeliveredMessageWithinFiveMinutes_isADuplicate_andRunsNothing() {
        GatewayHarness h = new GatewayHarness();
        InboundMessage message = h.message("hello").build();
        h.gateway.accept(message);
        h.agent.run(0).complete();
        h.advance(Duration.ofMinutes(4));
        h.gateway.accept(message);
        assertEquals(1, h.agent.runs().size());
        assertEquals(List.of(Disposition.RAN, Disposition.DUPLICATE),
                h.dispositions.entries().stream().map(e -> e.disposition()).toList());
    }

    @Test
    void theSameIdAfterTheWindow_orInAnotherChat_isNotADuplicate() {
        GatewayHarness h = new GatewayHarness();
        InboundMessage message = h.message("hello").build();
        h.gateway.accept(message);
        h.agent.run(0).complete();
        h.gateway.accept(InboundMessage.builder("test").chatId("other").senderId("other").text("x")
                .platformMessageId(message.platformMessageId()).build());
        h.agent.run(1).complete();
        h.advance(Duration.ofMinutes(5).plusMillis(1));
        h.gateway.accept(message);
        assertEquals(3, h.agent.runs().size());
    }

    @Test
    void beyondMaxPendingRuns_aMessageIsRejectedBusy_withAnEstimate() {
        GatewayHarness h = new GatewayHarness(s -> s.maxPendingRuns(2));
        h.dm("one");
        h.dm("two");
        String third = h.dm("three");
        assertEquals(Disposition.REJECTED_BUSY, h.dispositions.of(third));
        assertEquals(List.of("⏳ Busy right now. Please try again in 5 s."), h.channel.texts());
        h.agent.run(0).complete();
        h.advanceMillis(1000);
        h.agent.run(1).complete();
        String fourth = h.dm("four");
        h.agent.run(2).complete();
        assertEquals(Disposition.RAN, h.dispositions.of(fourth), "slots come back when messages end");
    }

    @Test
    void theBusyEstimate_followsRecentRunTimes() {
        GatewayHarness h = new GatewayHarness(s -> s.maxPendingRuns(1));
        h.dm("one");
        h.advance(Duration.ofSeconds(20));
        h.agent.run(0).complete("done");
        h.dm("two");
        h.dm("three");
        assertEquals(List.of("done", "⏳ Busy right now. Please try again in 20 s."), h.channel.texts());
    }

    @Test
    void sessionStates_countRunningAndDrainingSessions() {
        GatewayHarness h = new GatewayHarness();
        h.dm("run");
        h.dm("queued");
        h.send(h.message("other").chatId("o").senderId("other"));
        assertEquals(java.util.Map.of("running", 2), h.gateway.sessionStates());
        h.agent.run(0).complete();
        assertEquals(java.util.Map.of("running", 1, "draining", 1), h.gateway.sessionStates());
        assertEquals(1, h.gateway.queueDepths().get(dev.laneway.core.SessionKey.of("test:dm:user")));
    }

    @Test
    void maxPendingRunsZero_disablesTheCap() {
        GatewayHarness h = new GatewayHarness(s -> s.maxPendingRuns(0));
        for (int i = 0; i < 50; i++) {
            h.dm("m" + i);
        }
        assertEquals(0, h.dispositions.count(Disposition.REJECTED_BUSY));
    }

    @Test
    void withoutACap_pendingMessagesStillCountsWhatHasNotEnded() {
        GatewayHarness h = new GatewayHarness(s -> s.maxPendingRuns(0));
        h.dm("running");
        h.dm("queued");
        h.send(h.message("another chat").senderId("other").chatId("other"));
        assertEquals(3, h.gateway.pendingMessages());
        h.agent.run(0).complete("done");
        h.agent.run(1).complete("done");
        assertEquals(1, h.gateway.pendingMessages(), "the queued one, waiting for its drain");
        h.advance(java.time.Duration.ofSeconds(1));
        h.agent.run(2).complete("done");
        assertEquals(0, h.gateway.pendingMessages());
    }

    @Test
    void aSenderTheAccessPolicyRefuses_isDenied_silently() {
        GatewayHarness base = new GatewayHarness();
        Gateway gateway = Gateway.builder().clock(base.time).scheduler(base.time).executor(base.executor)
                .agent(base.agent).listener(base.dispositions).channel(new dev.laneway.core.testing.FakeChannel("test"))
                .access(AccessPolicy.allowFrom(java.util.Map.of("test", java.util.Set.of("friend"))))
                .build();
        InboundMessage stranger = base.message("hi").senderId("stranger").build();
        gateway.accept(stranger);
        gateway.accept(base.message("hi").senderId("friend").build());
        assertEquals(Disposition.DENIED, base.dispositions.of(stranger.platformMessageId()));
        assertEquals(1, base.agent.runs().size());
    }
}
