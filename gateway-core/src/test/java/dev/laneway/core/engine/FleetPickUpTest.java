package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.SessionKey;
import dev.laneway.core.store.JournalEntry;
import dev.laneway.core.store.MessageJournal;
import dev.laneway.core.testing.ManualTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A pick-up of a held session's messages (docs/behaviour.md §17; a nudge or the sweep) against a
 * message of that session ending at the same time: the journal's answer may still list the message
 * as pending while its end is written and it leaves the instance's known messages, and it must not
 * be taken again (it would run and be answered twice, D182). What ended before the pick-up began
 * reading (an end the fence refused, so the message stays pending) is still picked up.
 */
class FleetPickUpTest {

    private static final SessionKey SESSION = SessionKey.of("telegram:dm:7");

    private final ManualTime time = new ManualTime();
    private final List<JournalEntry> pending = new ArrayList<>();
    private volatile Runnable whileReading = () -> { };
    private final List<Long> adopted = new ArrayList<>();
    private final FleetSessions sessions = new FleetSessions(new OneFleet(), new Journal(), Runnable::run, time);

    FleetPickUpTest() {
        sessions.busyWhen(session -> false); // the engine has no session here
        sessions.adopter(entries -> entries.forEach(entry -> adopted.add(entry.seq())));
    }

    private static JournalEntry entry(long seq) {
        InboundMessage message = InboundMessage.builder("telegram").chatId("7").senderId("7").text("m" + seq)
                .platformMessageId("p" + seq).build();
        return new JournalEntry(seq, SESSION.value(), message, message.text(), QueueSettings.DEFAULTS, false);
    }

    @Test
    void aMessageEndingWhileThePickUpReadsTheJournal_isNotTakenAgain() {
        assertTrue(sessions.claim(SESSION, 1), "the lease is taken here and message 1 runs here");
        pending.add(entry(1)); // journaled, not ended yet
        pending.add(entry(2)); // journaled by another instance, which nudged this one
        whileReading = () -> sessions.ended(1); // its end is written while the journal answers

        sessions.pickUp(SESSION, false);

        assertEquals(List.of(2L), adopted, "message 1 ended: only message 2 is new here");
    }

    @Test
    void aMessageWhoseEndWasRefusedBeforeThePickUp_isPickedUpAgain() {
        assertTrue(sessions.claim(SESSION, 1));
        pending.add(entry(1));
        sessions.ended(1); // the fence refused its end: it stays pending in the journal

        sessions.pickUp(SESSION, false);

        assertEquals(List.of(1L), adopted);
    }

    @Test
    void theSweepForgetsEndsNoPickUpNeedsAnyMore() {
        assertTrue(sessions.claim(SESSION, 1));
        sessions.ended(1);
        assertEquals(1, sessions.endsRemembered());
        sessions.sweep(); // remembers where the count stood
        sessions.sweep(); // no pick-up began before that: forgotten
        assertEquals(0, sessions.endsRemembered());
    }

    /** The session's pending messages, with {@code whileReading} run between reading them and answering. */
    private final class Journal implements MessageJournal {
        @Override
        public CompletableFuture<Void> append(JournalEntry entry) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void settled(long seq, boolean answered) {
        }

        @Override
        public List<JournalEntry> pending() {
            return List.copyOf(pending);
        }

        @Override
        public List<JournalEntry> pendingOf(SessionKey session) {
            List<JournalEntry> read = List.copyOf(pending);
            whileReading.run();
            whileReading = () -> { };
            return read;
        }

        @Override
        public boolean seen(String messageKey) {
            return false;
        }

        @Override
        public long lastSequence() {
            return 0;
        }
    }
}
