package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.laneway.core.Disposition;
import dev.laneway.core.DropPolicy;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.SessionKey;
import dev.laneway.core.command.QueuedMessage;
import dev.laneway.core.testing.GatewayHarness;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code /queue status} and {@code /queue cancel} as the engine carries them out (docs/behaviour.md §6.9). */
class QueueCancelTest {

    private static final SessionKey GROUP = SessionKey.of("test:group:group");

    private static GatewayHarness followups() {
        return new GatewayHarness(s -> s.queueDefaults(
                new QueueSettings(QueueMode.FOLLOWUP, Duration.ofSeconds(1), 20, DropPolicy.SUMMARIZE)));
    }

    private static InboundMessage from(GatewayHarness h, String sender) {
        return h.message("any").direct(false).chatId("group").senderId(sender).build();
    }

    @Test
    void status_listsTheSendersQueuedMessages_withTheirPlaceInTheWholeQueue() {
        GatewayHarness h = followups();
        h.group("alice", "run now");
        h.group("alice", "first of alice");
        h.group("bob", "bob's");
        h.group("alice", "second of alice");
        assertEquals(List.of(new QueuedMessage(1, "first of alice"), new QueuedMessage(3, "second of alice")),
                h.gateway.queued(GROUP, from(h, "alice"), false));
        assertEquals(List.of(new QueuedMessage(2, "bob's")), h.gateway.queued(GROUP, from(h, "bob"), false));
        assertEquals(3, h.gateway.queued(GROUP, from(h, "bob"), true).size());
        assertEquals(List.of(), h.gateway.queued(SessionKey.of("test:group:elsewhere"), from(h, "bob"), false));
    }

    @Test
    void cancel_dropsOnlyTheSendersQueuedMessages_theyAreNeverAnswered_theRunAndOthersGoOn() {
        GatewayHarness h = followups();
        String run = h.group("alice", "run now");
        String a1 = h.group("alice", "first of alice");
        String b1 = h.group("bob", "bob's");
        String a2 = h.group("alice", "second of alice");
        assertEquals(2, h.gateway.cancelQueued(GROUP, from(h, "alice"), false));
        assertEquals(Disposition.STOPPED, h.dispositions.of(a1));
        assertEquals(Disposition.STOPPED, h.dispositions.of(a2));
        assertEquals(List.of(new QueuedMessage(1, "bob's")), h.gateway.queued(GROUP, from(h, "bob"), true));
        h.agent.run(0).complete("answer");
        h.advanceMillis(1000);
        assertEquals("bob's", h.agent.run(1).prompt(), "bob's message runs next; alice's never do");
        h.agent.run(1).complete("for bob");
        h.advance(Duration.ofSeconds(5));
        assertEquals(2, h.agent.runs().size());
        assertEquals(Disposition.RAN, h.dispositions.of(run));
        assertEquals(Disposition.RAN, h.dispositions.of(b1));
        assertEquals(0, h.gateway.cancelQueued(GROUP, from(h, "alice"), false), "nothing left to cancel");
    }

    @Test
    void cancelEveryone_emptiesTheQueue_andAnIdleSessionRetires() {
        GatewayHarness h = followups();
        h.group("alice", "run now");
        h.group("alice", "queued 1");
        h.group("bob", "queued 2");
        h.agent.run(0).complete("answer");  // the session now waits its debounce before draining
        assertEquals(2, h.gateway.cancelQueued(GROUP, from(h, "carol"), true));
        h.advance(Duration.ofSeconds(5));
        assertEquals(1, h.agent.runs().size(), "nothing runs after the cancel");
        assertEquals(0, h.gateway.busySessions());
        assertEquals(0, h.gateway.pendingMessages());
    }
}
