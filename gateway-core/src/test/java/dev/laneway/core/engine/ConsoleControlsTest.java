package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.SessionKey;
import dev.laneway.core.testing.GatewayHarness;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the operator console reads and does in the engine (docs/behaviour.md §18): every busy
 * session with its queued messages, their mode and the oldest one's arrival; "clear queue", which
 * discards the queued messages as {@code STOPPED} and leaves the active run alone.
 */
class ConsoleControlsTest {

    private static final SessionKey KEY = SessionKey.of("test:dm:user");

    @Test
    void conversations_listBusySessions_withQueuedMessages_modeAndTheOldestArrival() {
        GatewayHarness h = new GatewayHarness(s -> s);
        assertEquals(List.of(), h.gateway.conversations(), "no busy session");
        h.dm("first");
        h.advance(Duration.ofSeconds(1));
        Instant oldest = h.time.instant();
        h.dm("second");
        h.advance(Duration.ofSeconds(1));
        h.dm("third");

        List<ConversationSnapshot> all = h.gateway.conversations();
        assertEquals(1, all.size(), all.toString());
        ConversationSnapshot one = all.getFirst();
        assertEquals(KEY, one.session());
        assertEquals("running", one.state());
        assertTrue(one.running());
        assertEquals(2, one.queued());
        assertEquals(h.gateway.effectiveSettings(KEY, "test").mode(), one.mode());
        assertEquals(oldest, one.oldestQueuedAt());
        assertEquals("chat", one.route().chatId(), "a notice goes to the conversation's chat");

        h.agent.lastRun().complete("done");
        h.advance(Duration.ofSeconds(5)); // the drain runs the two queued messages
        ConversationSnapshot draining = h.gateway.conversations().getFirst();
        assertEquals(0, draining.queued());
        assertNull(draining.mode());
        assertNull(draining.oldestQueuedAt());
    }

    @Test
    void clearQueue_discardsTheQueuedMessagesAsStopped_andLeavesTheRunningRunAlone() {
        GatewayHarness h = new GatewayHarness(s -> s);
        String first = h.dm("first");
        String second = h.dm("second");
        String third = h.dm("third");

        assertEquals(2, h.gateway.clearQueue(KEY));
        assertEquals(Disposition.STOPPED, h.dispositions.of(second));
        assertEquals(Disposition.STOPPED, h.dispositions.of(third));
        assertEquals(2, h.dispositions.size(), "the running run's message is not ended: " + h.dispositions.entries());
        assertFalse(h.agent.lastRun().abortRequested(), "the run goes on");
        assertEquals(0, h.gateway.conversations().getFirst().queued());

        h.agent.lastRun().complete("answer");
        h.advance(Duration.ofSeconds(5));
        assertEquals(Disposition.RAN, h.dispositions.of(first));
        assertEquals(1, h.agent.runs().size(), "nothing was left to drain");
        assertEquals(List.of(), h.gateway.conversations(), "the session retired");
        assertEquals(0, h.gateway.clearQueue(KEY), "an idle session has nothing to clear");
    }

    @Test
    void clearQueue_ofASessionWithOnlyQueuedMessages_retiresIt() {
        GatewayHarness h = new GatewayHarness(s -> s.queueDefaults(
                new QueueSettings(QueueMode.COLLECT, Duration.ofSeconds(10), 20, DropPolicy.SUMMARIZE)));
        h.dm("first");
        String second = h.dm("second");
        h.agent.lastRun().complete("answer"); // the queued message waits for the debounce: draining
        ConversationSnapshot waiting = h.gateway.conversations().getFirst();
        assertFalse(waiting.running(), waiting.toString());
        assertEquals(1, waiting.queued());
        assertEquals(1, h.gateway.clearQueue(KEY));
        assertEquals(List.of(), h.gateway.conversations(), "nothing left: the session retired at once");
        assertEquals(Disposition.STOPPED, h.dispositions.of(second));
        h.advance(Duration.ofSeconds(20));
        assertEquals(1, h.agent.runs().size());
        assertEquals(List.of(), h.gateway.conversations());
    }
}
