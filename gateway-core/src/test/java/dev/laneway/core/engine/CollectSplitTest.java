package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.SessionScope;
import dev.laneway.core.testing.GatewayHarness;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Collect batches never mix routes or sender authorities (docs/behaviour.md §5.2). */
class CollectSplitTest {

    @Test
    void itemsForDifferentThreads_drainIndividually_eachWithItsOwnRoute_inArrivalOrder() {
        GatewayHarness h = new GatewayHarness(s -> s.sessionScope(
                new SessionScope(SessionScope.DmScope.PER_PEER, SessionScope.GroupScope.CHAT)));
        h.send(h.message("run").direct(false).chatId("g").threadId("t1"));
        h.send(h.message("one").direct(false).chatId("g").threadId("t1"));
        h.send(h.message("two").direct(false).chatId("g").threadId("t2"));
        h.send(h.message("three").direct(false).chatId("g").threadId("t2"));
        h.agent.run(0).complete();
        h.advanceMillis(1000);
        assertEquals("t1", h.agent.run(1).request().route().threadId());
        assertTrue(h.agent.run(1).prompt().endsWith("Queued #1 (from User)\none"));
        h.agent.run(1).complete();
        assertEquals("t2", h.agent.run(2).request().route().threadId());
        assertTrue(h.agent.run(2).prompt().contains("two") && h.agent.run(2).prompt().contains("three"));
    }

    @Test
    void anItemOfAnotherSenderAuthority_startsANewBatch() {
        GatewayHarness h = new GatewayHarness(s -> s.commandAllowFrom(Map.of("test", Set.of("admin"))));
        h.group("admin", "run");
        h.group("guest", "guest one");
        h.group("guest2", "guest two");
        h.group("admin", "admin one");
        h.agent.run(0).complete();
        h.advanceMillis(1000);
        String guests = h.agent.run(1).prompt();
        assertTrue(guests.contains("guest one") && guests.contains("guest two") && !guests.contains("admin one"), guests);
        h.agent.run(1).complete();
        assertTrue(h.agent.run(2).prompt().endsWith("Queued #1 (from Admin)\nadmin one"));
    }
}
