package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.laneway.core.Attachment;
import dev.laneway.core.Disposition;
import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.agent.MessageFiles;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.store.InMemoryJournal;
import dev.laneway.core.testing.ManualTime;
import dev.laneway.core.testing.GatewayHarness;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Attachments travel with their message through every mode (docs/behaviour.md §15.3): the prompt
 * carries one marker per file after its message's text, the run request the files in marker order
 * (a collect batch's under their own {@code Queued #N} block), a steer its message's files, and a
 * dropped message's summary line names its files.
 */
class AttachmentQueueTest {

    private static final Attachment REPORT = new Attachment("document", "report.txt", "text/plain", 1_300, "ref-report");
    private static final Attachment PLOT = new Attachment("photo", "plot.png", "image/png", 2_048, "ref-plot");
    private static final Attachment VOICE = new Attachment("voice", "voice.ogg", "audio/ogg", -1, "ref-voice");

    private static GatewayHarness harness(QueueMode mode, int cap) {
        return new GatewayHarness(s -> s.queueDefaults(new QueueSettings(mode, Duration.ofSeconds(1), cap,
                DropPolicy.SUMMARIZE)).commandAllowFrom(java.util.Map.of()));
    }

    @Test
    void aFileOnlyMessage_isARealMessage_whosePromptIsItsMarkers() {
        GatewayHarness h = harness(QueueMode.COLLECT, 20);
        String id = h.send(h.message("").attachments(List.of(PLOT)));

        assertEquals("[file: plot.png (image/png, 2 KB)]", h.agent.run(0).prompt());
        assertEquals(List.of(new MessageFiles("test", List.of(PLOT))), h.agent.run(0).request().files());
        h.agent.run(0).complete("a plot");
        assertEquals(Disposition.RAN, h.dispositions.of(id));
    }

    @Test
    void aCaptionedFile_keepsItsCaption_thenTheMarker() {
        GatewayHarness h = harness(QueueMode.COLLECT, 20);
        h.send(h.message("what does it say?").attachments(List.of(REPORT)));

        assertEquals("what does it say?\n[file: report.txt (text/plain, 1.3 KB)]", h.agent.run(0).prompt());
    }

    @Test
    void aCollectBatch_carriesEachMessagesFiles_underItsOwnBlock_fromTwoSenders() {
        GatewayHarness h = harness(QueueMode.COLLECT, 20);
        h.group("alice", "start");
        h.send(h.message("mine").direct(false).chatId("group").senderId("alice").senderName("Alice")
                .attachments(List.of(REPORT)));
        h.send(h.message("").direct(false).chatId("group").senderId("bob").senderName("Bob")
                .attachments(List.of(PLOT, VOICE)));
        h.agent.run(0).complete("ok");
        h.advanceMillis(1000);

        assertEquals("""
                [Queued messages while agent was busy]

                ---
                Queued #1 (from Alice)
                mine
                [file: report.txt (text/plain, 1.3 KB)]

                ---
                Queued #2 (from Bob)
                [file: plot.png (image/png, 2 KB)]
                [file: voice.ogg (audio/ogg)]""", h.agent.run(1).prompt());
        assertEquals(List.of(new MessageFiles("test", List.of(REPORT)), new MessageFiles("test", List.of(PLOT, VOICE))),
                h.agent.run(1).request().files(), "one entry per message, in marker order");
    }

    @Test
    void aSteer_carriesItsMessagesFiles_toTheRunningAgent() {
        GatewayHarness h = harness(QueueMode.STEER, 20);
        h.agent.steerable(true);
        h.dm("start");
        h.send(h.message("and this").attachments(List.of(REPORT)));

        var steer = h.agent.run(0).steers().get(0);
        assertEquals("and this\n[file: report.txt (text/plain, 1.3 KB)]", steer.text());
        assertEquals(new MessageFiles("test", List.of(REPORT)), steer.files());
        h.dm("plain");
        assertNull(h.agent.run(0).steers().get(1).files(), "a steer without files carries none");
    }

    @Test
    void aFollowup_carriesItsFiles_andATextOnlyTurnNone() {
        GatewayHarness h = harness(QueueMode.FOLLOWUP, 20);
        h.dm("start");
        h.send(h.message("later").attachments(List.of(VOICE)));
        h.agent.run(0).complete("ok");
        h.advanceMillis(1000);

        assertEquals(List.of(), h.agent.run(0).request().files());
        assertEquals("later\n[file: voice.ogg (audio/ogg)]", h.agent.run(1).prompt());
        assertEquals(List.of(new MessageFiles("test", List.of(VOICE))), h.agent.run(1).request().files());
    }

    @Test
    void aQueuedMessagesFiles_surviveARestart_fromItsJournalEntry() {
        InMemoryJournal journal = new InMemoryJournal();
        GatewayHarness before = new GatewayHarness(s -> s, CommandHandler.NONE, journal, new ManualTime());
        before.dm("busy");
        String queued = before.send(before.message("later").attachments(List.of(REPORT)));
        // crash: both are pending; the stores' round trip of the entry is EntryRoundTripContract's

        GatewayHarness after = new GatewayHarness(s -> s, CommandHandler.NONE, journal,
                new ManualTime(before.time.instant().plusSeconds(30)));
        after.agent.run(0).complete("first");
        after.advanceMillis(1000);
        assertEquals("""
                [Queued messages while agent was busy]

                ---
                Queued #1
                later
                [file: report.txt (text/plain, 1.3 KB)]""", after.agent.run(1).prompt());
        assertEquals(List.of(new MessageFiles("test", List.of(REPORT))), after.agent.run(1).request().files(),
                "the reference to fetch it by came back with the message");
        after.agent.run(1).complete("second");
        assertEquals(Disposition.COLLECTED, after.dispositions.of(queued));
    }

    @Test
    void dropSummarize_namesTheDroppedFiles() {
        GatewayHarness h = harness(QueueMode.FOLLOWUP, 1);
        h.dm("start");
        h.send(h.message("see attached").attachments(List.of(REPORT, PLOT)));
        h.send(h.message("").attachments(List.of(VOICE)));
        h.dm("last");
        h.agent.run(0).complete("ok");
        h.advanceMillis(1000);

        assertEquals("""
                [Queue overflow] Dropped 2 messages due to cap.
                Summary:
                - see attached [files: report.txt, plot.png]
                - [files: voice.ogg]

                last""", h.agent.run(1).prompt());
        assertEquals(List.of(), h.agent.run(1).request().files(), "a dropped message's files are not fetched");
    }
}
