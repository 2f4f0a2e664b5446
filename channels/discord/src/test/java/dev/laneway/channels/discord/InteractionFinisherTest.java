package dev.laneway.channels.discord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.channels.discord.PendingInteractions.State;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** A deferred slash command that gets no answer is closed with one notice, at its deadline and never before. */
class InteractionFinisherTest {

    private static final Duration DEADLINE = InteractionFinisher.ANSWER_DEADLINE;

    private final ManualTime time = new ManualTime();
    private final PendingInteractions<String> pending = new PendingInteractions<>(time, PendingInteractions.DEFAULT_TTL, 10);
    // "handle: notice", in the order the finisher sent them
    private final List<String> notices = new CopyOnWriteArrayList<>();
    private final InteractionFinisher<String> finisher =
            new InteractionFinisher<>(pending, time, DEADLINE, this::record);

    private CompletableFuture<?> record(String handle, String notice) {
        notices.add(handle + ": " + notice);
        return CompletableFuture.completedFuture(null);
    }

    @Test
    void anUnansweredInteraction_isClosedAtItsDeadline_notBefore() {
        pending.put("i1", "hook-1", true);
        finisher.watch("i1");

        time.advance(DEADLINE.minusMillis(1));
        assertEquals(List.of(), notices);

        time.advanceMillis(1);
        assertEquals(List.of("hook-1: " + SlashNotices.NO_ANSWER), notices);
        assertEquals(State.FINISHED, pending.get("i1").orElseThrow().state());
    }

    @Test
    void theDeadline_fallsWellBeforeTheTokenExpires() {
        assertTrue(DEADLINE.compareTo(PendingInteractions.DEFAULT_TTL) < 0,
                "a silent interaction must be closed while its token still works");
    }

    @Test
    void anAnsweredInteraction_isLeftAlone() {
        pending.put("i1", "hook-1", false);
        finisher.watch("i1");
        pending.answering("i1");

        time.advance(PendingInteractions.DEFAULT_TTL);
        assertEquals(List.of(), notices);
    }

    @Test
    void finishingNow_winsOnce_andTheDeadlineThenDoesNothing() {
        pending.put("i1", "hook-1", false);
        finisher.watch("i1");

        assertTrue(finisher.finishIfAwaiting("i1", SlashNotices.NOT_HANDLED));
        assertFalse(finisher.finishIfAwaiting("i1", SlashNotices.NOT_HANDLED));
        time.advance(DEADLINE);
        assertEquals(List.of("hook-1: " + SlashNotices.NOT_HANDLED), notices);
    }

    @Test
    void aFailedFirstAnswer_closesTheInteraction_onlyIfItWasAnswering() {
        pending.put("answering", "hook-a", false);
        pending.put("waiting", "hook-w", false);
        pending.answering("answering");

        assertTrue(finisher.firstAnswerFailed("answering", SlashNotices.NOT_DELIVERED));
        assertFalse(finisher.firstAnswerFailed("waiting", SlashNotices.NOT_DELIVERED), "nothing was being sent");
        assertEquals(List.of("hook-a: " + SlashNotices.NOT_DELIVERED), notices);
    }

    @Test
    void stopping_closesEveryWaitingInteraction_once() {
        pending.put("i1", "hook-1", false);
        pending.put("i2", "hook-2", false);
        pending.put("i3", "hook-3", false);
        pending.answering("i2");

        assertEquals(2, finisher.finishAllAwaiting(SlashNotices.SHUTTING_DOWN).join());
        assertEquals(0, finisher.finishAllAwaiting(SlashNotices.SHUTTING_DOWN).join());
        assertEquals(List.of("hook-1: " + SlashNotices.SHUTTING_DOWN, "hook-3: " + SlashNotices.SHUTTING_DOWN), notices);
    }

    @Test
    void aNoticeThatCannotBeSent_isLogged_andTheOthersStillGo() {
        InteractionFinisher<String> failing = new InteractionFinisher<>(pending, time, DEADLINE, (handle, notice) -> {
            if (handle.equals("hook-1")) {
                throw new IllegalStateException("token gone");
            }
            return record(handle, notice);
        });
        pending.put("i1", "hook-1", false);
        pending.put("i2", "hook-2", false);

        assertEquals(2, failing.finishAllAwaiting(SlashNotices.SHUTTING_DOWN).join(), "completes despite the failure");
        assertEquals(List.of("hook-2: " + SlashNotices.SHUTTING_DOWN), notices);
    }

    @Test
    void aDeadlineThatIsNotPositive_isRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new InteractionFinisher<>(pending, time, Duration.ZERO, this::record));
        assertEquals("answer deadline must be positive, got PT0S", e.getMessage());
    }

    @Test
    void theNotices_followTheSpecsFailureLine() {
        assertEquals("\u26A0\uFE0F Sorry, something went wrong while answering. (no answer came back for this command)",
                SlashNotices.NO_ANSWER);
        assertEquals("\u26D4 You are not allowed to use this bot here.", SlashNotices.NOT_ALLOWED);
    }
}
