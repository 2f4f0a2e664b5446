package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.channel.SendFailure;
import dev.laneway.core.channel.Streaming;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.store.InMemoryJournal;
import dev.laneway.core.store.JournalEntry;
import dev.laneway.core.store.LiveMessage;
import dev.laneway.core.testing.FakeChannel;
import dev.laneway.core.testing.GatewayHarness;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A crash mid-stream: the live message the answer left behind is marked interrupted after the
 * restart, and the message is answered once, afresh (docs/behaviour.md §16.3).
 */
class InterruptedStreamRestartTest {

    private final InMemoryJournal journal = new InMemoryJournal();

    private GatewayHarness start(ManualTime time) {
        GatewayHarness h = new GatewayHarness(s -> s, CommandHandler.NONE, journal, time);
        h.channel.streaming(Streaming.every(Duration.ofSeconds(1)));
        return h;
    }

    /** The same platform after the restart: the chat still shows what the crashed process posted. */
    private GatewayHarness restart(GatewayHarness before) {
        return restart(before, List.of());
    }

    private GatewayHarness restart(GatewayHarness before, List<Exception> editFailures) {
        ManualTime time = new ManualTime(before.time.instant().plusSeconds(30));
        FakeChannel channel = new FakeChannel("test").sameChatsAs(before.channel)
                .streaming(Streaming.every(Duration.ofSeconds(1)));
        channel.failNextEdits(editFailures.toArray(Exception[]::new));
        return new GatewayHarness(s -> s, journal, time, channel);
    }

    private List<LiveMessage> recorded() {
        return journal.liveMessages(journal.pending().stream().map(JournalEntry::seq).toList());
    }

    @Test
    void aCrashMidStream_marksThePartialMessageInterrupted_thenAnswersOnceInANewMessage() {
        GatewayHarness before = start(new ManualTime());
        before.dm("hi");
        var run = before.agent.run(0);
        run.delta("Partial");
        before.advanceMillis(1000);
        run.delta(" answer");
        before.advanceMillis(1000);
        assertEquals(List.of("post p1 Partial", "edit p1 Partial answer"), before.channel.calls());
        assertEquals(List.of("Partial answer"), recorded().stream().map(LiveMessage::text).toList(),
                "the journal holds what the live message shows");
        // crash: `before` is dropped mid-stream

        GatewayHarness after = restart(before);
        assertEquals(List.of("edit p1 Partial answer\n\n" + LiveAnswer.INTERRUPTED), after.channel.calls(),
                "the orphaned message is marked before anything else goes to the chat");
        assertEquals(List.of("hi"), after.agent.prompts(), "the message runs again, once");
        after.agent.run(0).delta("Whole").complete("Whole answer");
        after.advanceMillis(1000);
        assertEquals(List.of("Partial answer\n\n" + LiveAnswer.INTERRUPTED, "Whole answer"), after.channel.screen());
        assertEquals(List.of(), journal.pending(), "answered once");
        assertEquals(List.of(), journal.liveMessages(List.of(1L)), "nothing is left to mark");
        assertEquals(1, after.agent.runs().size());
    }

    @Test
    void aToolLineShownAtTheCrash_isReplacedByTheMark() {
        GatewayHarness before = start(new ManualTime());
        before.dm("time?");
        before.agent.run(0).delta("Let me look.");
        before.advanceMillis(1000);
        before.agent.run(0).toolStep("current_time", "started");
        before.advanceMillis(1000);
        assertEquals(List.of("Let me look.\n\n🔧 current_time…"), before.channel.screen());

        GatewayHarness after = restart(before);
        assertEquals(List.of("Let me look.\n\n" + LiveAnswer.INTERRUPTED), after.channel.screen());
    }

    @Test
    void aLongAnswer_onlyItsLastMessageIsKept_andMarked() {
        GatewayHarness before = start(new ManualTime());
        before.dm("long");
        String first = "a".repeat(4090);
        before.agent.run(0).delta(first + "\n\n" + "second part");
        before.advanceMillis(1000);
        before.advanceMillis(1000);
        assertEquals(2, before.channel.screen().size());
        assertEquals(List.of("p2"), recorded().stream().map(LiveMessage::messageId).toList());

        GatewayHarness after = restart(before);
        assertEquals(List.of("edit p2 second part\n\n" + LiveAnswer.INTERRUPTED), after.channel.calls());
    }

    @Test
    void anAnswerShownWhole_leavesNothingToMark() {
        GatewayHarness h = start(new ManualTime());
        h.dm("one");
        h.agent.run(0).delta("Done");
        assertEquals(1, recorded().size());
        h.agent.run(0).complete("Done.");
        h.advanceMillis(1000);
        assertEquals(List.of(), journal.pending());
        assertEquals(List.of(), journal.liveMessages(List.of(1L)), "the settle forgot it");
    }

    @Test
    void aReplyMarkedWhenItsRunFailed_isNotMarkedAgainAfterACrashDuringTheRetry() {
        GatewayHarness h = new GatewayHarness(s -> s.failureRetries(1), CommandHandler.NONE, journal, new ManualTime());
        h.channel.streaming(Streaming.every(Duration.ofSeconds(1)));
        h.dm("two");
        h.agent.run(0).delta("Half");
        h.agent.run(0).fail("HTTP 500", true);
        assertEquals(List.of("Half\n\n" + LiveAnswer.INTERRUPTED), h.channel.screen());
        assertEquals(List.of(), recorded(), "marked already: a crash during the retry does not mark it twice");
        assertEquals(1, journal.pending().size(), "the retry is still to answer it");
    }

    @Test
    void aPlatformThatRefusesTheMark_isNotAskedAgain_andTheAnswerStillGoes() {
        GatewayHarness before = start(new ManualTime());
        String id = before.dm("hi");
        before.agent.run(0).delta("Partial");
        before.advanceMillis(1000);

        GatewayHarness after = restart(before, List.of(SendFailure.refused("HTTP 400 message can't be edited")));
        after.agent.run(0).delta("Whole").complete("Whole answer");
        after.advanceMillis(1000);
        assertEquals(List.of("Partial", "Whole answer"), after.channel.screen());
        assertEquals(List.of(), journal.liveMessages(List.of(1L)));
        assertEquals(Disposition.RAN, after.dispositions.of(id));

        GatewayHarness again = restart(after);
        assertTrue(again.channel.calls().isEmpty(), "nothing pending, nothing to mark");
    }
}
