package dev.laneway.channels.discord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.channels.discord.PendingInteractions.Pending;
import dev.laneway.channels.discord.PendingInteractions.State;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class PendingInteractionsTest {

    private final ManualTime time = new ManualTime();

    @Test
    void anAnswerIsFound_untilItsTokenExpires() {
        PendingInteractions<String> pending = new PendingInteractions<>(time, Duration.ofMinutes(14), 10);
        pending.put("i1", "hook-1", true);

        time.advance(Duration.ofMinutes(14).minusMillis(1));
        assertEquals("hook-1", pending.get("i1").orElseThrow().handle());
        assertTrue(pending.get("i1").orElseThrow().ephemeral());

        time.advanceMillis(1);
        assertTrue(pending.get("i1").isEmpty());
        assertEquals(0, pending.size(), "expired entries are removed, not just hidden");
    }

    @Test
    void theMapIsBounded_theOldestIsDroppedFirst() {
        PendingInteractions<String> pending = new PendingInteractions<>(time, Duration.ofMinutes(14), 2);
        pending.put("i1", "hook-1", false);
        pending.put("i2", "hook-2", false);
        pending.put("i3", "hook-3", false);

        assertEquals(2, pending.size());
        assertTrue(pending.get("i1").isEmpty());
        assertEquals("hook-2", pending.get("i2").orElseThrow().handle());
        assertEquals("hook-3", pending.get("i3").orElseThrow().handle());
    }

    @Test
    void aCapacityBelowOne_isRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new PendingInteractions<String>(time, Duration.ofMinutes(1), 0));
        assertEquals("capacity must be >= 1, got 0", e.getMessage());
    }

    @Test
    void aRedeliveredId_isRefused_andKeepsTheFirstEntry() {
        PendingInteractions<String> pending = new PendingInteractions<>(time, Duration.ofMinutes(14), 10);

        assertTrue(pending.put("i1", "hook-1", true));
        assertFalse(pending.put("i1", "hook-again", false));
        assertEquals("hook-1", pending.get("i1").orElseThrow().handle());
        assertTrue(pending.get("i1").orElseThrow().ephemeral());
    }

    @Test
    void anEntryAwaits_untilItsFirstAnswer_whichReportsTheStateBefore() {
        PendingInteractions<String> pending = new PendingInteractions<>(time, Duration.ofMinutes(14), 10);
        pending.put("i1", "hook-1", false);

        assertEquals(State.AWAITING, pending.answering("i1").orElseThrow().state(), "the first answer");
        assertEquals(State.ANSWERED, pending.answering("i1").orElseThrow().state(), "a later chunk");
        assertEquals(State.ANSWERED, pending.get("i1").orElseThrow().state());
        assertTrue(pending.answering("unknown").isEmpty());
    }

    @Test
    void answeredAndFinished_excludeEachOther() {
        PendingInteractions<String> pending = new PendingInteractions<>(time, Duration.ofMinutes(14), 10);
        pending.put("answered", "hook-a", false);
        pending.put("finished", "hook-f", false);

        pending.answering("answered");
        assertTrue(pending.transition("answered", State.AWAITING, State.FINISHED).isEmpty(), "already answered");
        assertEquals(State.FINISHED, pending.transition("finished", State.AWAITING, State.FINISHED).orElseThrow().state());
        assertEquals(State.FINISHED, pending.answering("finished").orElseThrow().state(),
                "a late answer still finds the handle, and the entry stays finished");
        assertEquals(State.FINISHED, pending.get("finished").orElseThrow().state());
    }

    @Test
    void finishAllAwaiting_finishesOnlyTheWaitingOnes_once() {
        PendingInteractions<String> pending = new PendingInteractions<>(time, Duration.ofMinutes(14), 10);
        pending.put("i1", "hook-1", false);
        pending.put("i2", "hook-2", false);
        pending.put("i3", "hook-3", false);
        pending.answering("i2");

        assertEquals(List.of("hook-1", "hook-3"), pending.finishAllAwaiting().stream().map(Pending::handle).toList());
        assertEquals(List.of(), pending.finishAllAwaiting());
        assertEquals(State.ANSWERED, pending.get("i2").orElseThrow().state());
    }

    @Test
    void aForgottenInteraction_isGone_soItsAnswerGoesToTheChannel() {
        PendingInteractions<String> pending = new PendingInteractions<>(time, Duration.ofMinutes(14), 10);
        pending.put("i1", "hook-1", false);

        pending.forget("i1");
        assertTrue(pending.answering("i1").isEmpty());
        assertEquals(0, pending.size());
    }
}
