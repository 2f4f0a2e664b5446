package dev.laneway.channels.slack;

import static dev.laneway.channels.slack.SlackEvents.dm;
import static dev.laneway.channels.slack.SlackEvents.eventsApi;
import static dev.laneway.channels.slack.SlackEvents.newEnvelopeId;
import static dev.laneway.channels.slack.SlackEvents.ts;
import static dev.laneway.core.testing.Await.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import dev.laneway.core.store.InMemoryJournal;
import dev.laneway.core.store.JournalEntry;
import dev.laneway.core.testing.ForwardingJournal;
import dev.laneway.core.testing.LogCapture;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The real SDK against the fake Socket Mode server, through a real gateway whose journal writes the
 * test holds: a message's envelope is acknowledged only once the journal has recorded it (Slack
 * never redelivers an acknowledged envelope, so an earlier ack loses the message to a crash), at
 * the latest at the deadline; anything without a message is acknowledged at once.
 */
class SlackAckTest {

    /** A journal whose appends complete only when the test releases them. */
    private static final class HeldJournal extends ForwardingJournal {
        final List<JournalEntry> appended = new CopyOnWriteArrayList<>();
        final CompletableFuture<Void> release = new CompletableFuture<>();

        HeldJournal() {
            super(new InMemoryJournal());
        }

        @Override
        public CompletableFuture<Void> append(JournalEntry entry) {
            appended.add(entry);
            return release.thenCompose(done -> super.append(entry));
        }
    }

    /** An event Laneway does not handle (not a message): nothing to store. */
    private static JsonObject reaction() {
        JsonObject event = new JsonObject();
        event.addProperty("type", "reaction_added");
        event.addProperty("user", "U1");
        event.addProperty("reaction", "thumbsup");
        event.addProperty("event_ts", ts());
        return event;
    }

    @Test
    void aMessagesEnvelope_isAcknowledgedOnlyOnceTheJournalHasRecordedIt_otherEnvelopesAtOnce() throws Exception {
        HeldJournal journal = new HeldJournal();
        try (SlackRig rig = SlackRig.gateway(journal, Duration.ofSeconds(30))) {
            try {
                String message = newEnvelopeId();
                rig.deliver(eventsApi(message, dm("U1", "D1", "keep me", ts())));
                until("the journal write to begin", () -> journal.appended.size() == 1);
                String other = newEnvelopeId();
                rig.deliver(eventsApi(other, reaction()));
                until("the other envelope's ack", () -> rig.socket.acks().contains(other));
                assertFalse(rig.socket.acks().contains(message),
                        "acknowledged before the message was recorded: " + rig.socket.acks());

                journal.release.complete(null);
                until("the message's ack", () -> rig.socket.acks().contains(message));
                assertEquals(List.of(other, message), rig.socket.acks());
                assertEquals("keep me", rig.awaitRun(0).prompt());
            } finally {
                journal.release.complete(null);
            }
        }
    }

    @Test
    void aStoreSlowerThanTheDeadline_isAcknowledgedAnyway_beforeSlackRetries_withAWarning() throws Exception {
        HeldJournal journal = new HeldJournal();
        try (LogCapture log = LogCapture.of(EnvelopeAcks.class);
             SlackRig rig = SlackRig.gateway(journal, Duration.ofMillis(200))) {
            try {
                String message = newEnvelopeId();
                rig.deliver(eventsApi(message, dm("U1", "D1", "slow store", ts())));
                until("the ack at the deadline", () -> rig.socket.acks().contains(message));
                assertEquals(1, journal.appended.size());
                assertEquals(1, log.warnings().size(), log.lines().toString());
                assertTrue(log.warnings().get(0).startsWith("Slack envelope " + message + " acknowledged after 200 ms"
                        + " before its message was stored"), log.warnings().get(0));

                journal.release.complete(null);
                assertEquals("slow store", rig.awaitRun(0).prompt());
                assertEquals(List.of(message), rig.socket.acks(), "acknowledged once");
            } finally {
                journal.release.complete(null);
            }
        }
    }
}
