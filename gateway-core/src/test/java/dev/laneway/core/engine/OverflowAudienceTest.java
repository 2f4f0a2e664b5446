package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.SessionScope;
import dev.laneway.core.testing.GatewayHarness;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * An overflow summary belongs to the route and sender authority of the messages it summarizes
 * (docs/behaviour.md §5.5: items of different routes drain separately, and a guest's text never runs with
 * an admin's permissions); one nobody of its kind can carry becomes a turn of its own.
 */
class OverflowAudienceTest {

    private static GatewayHarness adminAndGuests(QueueMode mode, int cap) {
        return adminAndGuests(mode, cap, null);
    }

    /** @param capPerSender the group's per-sender part of the cap (null: half the cap) */
    private static GatewayHarness adminAndGuests(QueueMode mode, int cap, Integer capPerSender) {
        return new GatewayHarness(s -> s.commandAllowFrom(Map.of("test", Set.of("admin"))).queueCapPerSender(capPerSender)
                .queueDefaults(new QueueSettings(mode, Duration.ofSeconds(1), cap, DropPolicy.SUMMARIZE)));
    }

    @Test
    void aGuestsSummarizedText_neverRunsInAnAdminsTurn_butGetsATurnOfItsOwn() {
        // no per-sender part, so the guest's older message is the one summarized (with it, the admin's own would be)
        GatewayHarness h = adminAndGuests(QueueMode.COLLECT, 2, 0);
        h.group("admin", "run");
        String guest = h.group("guest", "guest secret");
        String a1 = h.group("admin", "admin one");
        String a2 = h.group("admin", "admin two");
        assertEquals(Disposition.SUMMARIZED, h.dispositions.of(guest));
        h.agent.run(0).complete();
        h.advanceMillis(1000);

        assertEquals("""
                [Queue overflow] Dropped 1 message due to cap.
                Summary:
                - guest secret""", h.agent.run(1).prompt(), "the guest's summary runs alone, as the guest");
        assertEquals(guest, h.agent.run(1).request().route().replyToMessageId());
        assertEquals("guest", h.agent.run(1).request().senderId());
        h.agent.run(1).complete();

        String admins = h.agent.run(2).prompt();
        assertFalse(admins.contains("guest secret"), admins);
        assertFalse(admins.contains("[Queue overflow]"), admins);
        assertTrue(admins.contains("admin one") && admins.endsWith("admin two"), admins);
        h.agent.run(2).complete();
        assertEquals(Disposition.COLLECTED, h.dispositions.of(a1));
        assertEquals(Disposition.COLLECTED, h.dispositions.of(a2));
        assertEquals(0, h.gateway.pendingMessages());
    }

    @Test
    void aSummary_ridesOnTheNextTurnOfItsOwnAudience_notOnTheNextTurn() {
        GatewayHarness h = adminAndGuests(QueueMode.COLLECT, 3); // a sender's part: 2
        h.group("admin", "run");
        h.group("admin", "admin one");
        h.group("guest", "guest dropped");
        h.group("guest", "guest kept");
        h.group("guest", "guest three"); // the guest holds their part: their own oldest makes room
        h.agent.run(0).complete();
        h.advanceMillis(1000);
        assertEquals("""
                [Queued messages while agent was busy]

                ---
                Queued #1 (from Admin)
                admin one""", h.agent.run(1).prompt());
        h.agent.run(1).complete();
        assertEquals("""
                [Queued messages while agent was busy]

                [Queue overflow] Dropped 1 message due to cap.
                Summary:
                - guest dropped

                ---
                Queued #1 (from Guest)
                guest kept

                ---
                Queued #2 (from Guest)
                guest three""", h.agent.run(2).prompt());
        h.agent.run(2).complete();
        assertEquals(3, h.agent.runs().size());
    }

    @Test
    void inFollowupMode_aGuestsSummary_isNotPrependedToAnAdminsMessage() {
        GatewayHarness h = adminAndGuests(QueueMode.FOLLOWUP, 1);
        h.group("admin", "run");
        h.group("guest", "guest secret");
        String admin = h.group("admin", "admin question");
        h.agent.run(0).complete();
        h.advanceMillis(1000);
        assertEquals("[Queue overflow] Dropped 1 message due to cap.\nSummary:\n- guest secret", h.agent.run(1).prompt());
        h.agent.run(1).complete();
        assertEquals("admin question", h.agent.run(2).prompt(), "the summary never replaces or joins a real message");
        h.agent.run(2).complete();
        assertEquals(Disposition.RAN, h.dispositions.of(admin));
    }

    @Test
    void withGroupScopeChat_aMessageDroppedInOneThread_neverAppearsInAnotherThreadsTurn() {
        GatewayHarness h = new GatewayHarness(s -> s
                .sessionScope(new SessionScope(SessionScope.DmScope.PER_PEER, SessionScope.GroupScope.CHAT))
                .queueDefaults(new QueueSettings(QueueMode.COLLECT, Duration.ofSeconds(1), 2, DropPolicy.SUMMARIZE)));
        h.send(h.message("run").direct(false).chatId("g").threadId("t1"));
        String dropped = h.send(h.message("from thread two").direct(false).chatId("g").threadId("t2"));
        h.send(h.message("one").direct(false).chatId("g").threadId("t1"));
        h.send(h.message("two").direct(false).chatId("g").threadId("t1"));
        h.agent.run(0).complete("answer 0");
        h.advanceMillis(1000);

        assertEquals("t2", h.agent.run(1).request().route().threadId());
        assertEquals(dropped, h.agent.run(1).request().route().replyToMessageId());
        assertTrue(h.agent.run(1).prompt().endsWith("- from thread two"));
        h.agent.run(1).complete("answer 1");
        assertEquals("t1", h.agent.run(2).request().route().threadId());
        assertFalse(h.agent.run(2).prompt().contains("thread two"), h.agent.run(2).prompt());
        h.agent.run(2).complete("answer 2");
        assertEquals(List.of("answer 0", "⚠️ Queue full (cap 2): 1 older message(s) were summarized.", "answer 1",
                "answer 2"), h.channel.texts());
        assertEquals("t2", h.channel.sent().get(1).route().threadId(), "the notice goes to the dropped message's thread");
    }
}
