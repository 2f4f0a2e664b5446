package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.SessionKey;
import dev.laneway.core.lane.LaneSnapshot;
import dev.laneway.core.testing.GatewayHarness;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An idle session rests in the registry, not busy anywhere, and its chat's next message reuses it;
 * once it has rested a minute, the next session made retires it, and its chat then gets a new one
 * (docs/decisions.md D216).
 */
class RestingSessionsTest {

    private final GatewayHarness h = new GatewayHarness();

    private String message(String sender, String text) {
        return h.send(h.message(text).senderId(sender).chatId(sender));
    }

    @Test
    void anIdleSessionRests_itsChatReusesIt_andItRetiresOnceItRestedAMinute() throws InterruptedException {
        String first = message("ann", "one");
        h.agent.lastRun().complete("hi");
        assertEquals(Disposition.RAN, h.dispositions.of(first));
        assertEquals(0, h.gateway.busySessions(), "a resting session is not busy");
        assertEquals(1, h.gateway.registeredSessions(), "it rests in the registry");
        assertEquals(Map.of(), h.gateway.sessionStates());
        assertEquals(List.of(), h.gateway.conversations());
        assertEquals(Map.of(), h.gateway.queueDepths());
        assertTrue(h.gateway.lanes().stream().noneMatch(lane -> lane.name().startsWith("session:")));
        assertEquals(new LaneSnapshot("session:test:dm:ann", 1, 0, 0),
                h.gateway.status(SessionKey.of("test:dm:ann"), "test").lanes().get(0), "as an idle session's lane");

        String second = message("ann", "two");
        assertEquals(1, h.gateway.busySessions(), "busy again");
        assertEquals(1, h.gateway.registeredSessions(), "its chat's next message reused it");
        h.agent.lastRun().complete("hi again");
        assertEquals(Disposition.RAN, h.dispositions.of(second));

        h.advance(Duration.ofSeconds(59));
        message("bob", "hello");
        h.agent.lastRun().complete("hi bob");
        assertEquals(2, h.gateway.registeredSessions(), "ann's rested less than a minute: kept");

        h.advance(Duration.ofSeconds(61));
        message("carol", "hello");
        h.agent.lastRun().complete("hi carol");
        assertEquals(1, h.gateway.registeredSessions(), "a session made retired those that rested a minute");

        String third = message("ann", "three");
        assertEquals("three", h.agent.lastRun().prompt(), "a retired session's chat gets a new one");
        h.agent.lastRun().complete("hi");
        assertEquals(Disposition.RAN, h.dispositions.of(third));
        assertEquals(0, h.gateway.busySessions());
        assertTrue(h.gateway.awaitIdle(Duration.ofSeconds(5)), "resting sessions do not keep the gateway busy");
    }

    @Test
    void stopOnARestingSession_discardsNothing_andItStaysUsable() {
        message("ann", "one");
        h.agent.lastRun().complete("hi");
        assertEquals(0, h.gateway.stop(SessionKey.of("test:dm:ann")));
        assertEquals(0, h.gateway.busySessions());
        String next = message("ann", "two");
        h.agent.lastRun().complete("hi");
        assertEquals(Disposition.RAN, h.dispositions.of(next));
    }
}
