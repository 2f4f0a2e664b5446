package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.SessionKey;
import dev.laneway.core.channel.SendFailure;
import dev.laneway.core.channel.Streaming;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.store.InMemoryJournal;
import dev.laneway.core.store.JournalEntry;
import dev.laneway.core.testing.GatewayHarness;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Answers streamed as drafts, previews the chat does not keep (Telegram's private chats,
 * docs/behaviour.md §16.1): the draft changes while the model writes, and the final text is sent
 * as a message.
 */
class LiveDraftTest {

    private final InMemoryJournal journal = new InMemoryJournal();

    private GatewayHarness drafting() {
        GatewayHarness h = new GatewayHarness(s -> s.failureRetries(0), CommandHandler.NONE, journal, new ManualTime());
        h.channel.streaming(Streaming.every(Duration.ofSeconds(1))).drafts(true);
        return h;
    }

    @Test
    void theDraftChangesAtMostOncePerInterval_andTheFinalTextIsSentAsAMessage() {
        GatewayHarness h = drafting();
        String id = h.dm("hi");
        var run = h.agent.run(0);
        run.delta("Hel");
        run.delta("lo wor");
        h.advanceMillis(1000);
        run.delta("ld");
        run.complete("Hello world!");
        h.advanceMillis(1000);
        assertEquals(List.of("draft d1 Hel", "draft d1 Hello wor", "keep d1 Hello world!"), h.channel.calls());
        assertEquals(List.of("Hello world!"), h.channel.texts(), "one message is sent: the answer");
        assertEquals(Map.of(), h.channel.liveDrafts());
        assertEquals(Disposition.RAN, h.dispositions.of(id));
        List<String> progress = h.channel.progress();
        assertTrue(progress.indexOf("send Hello world!") < progress.indexOf("settled " + id), progress.toString());
    }

    @Test
    void aLongAnswer_keepsEveryDraftOfIt_inOrder() {
        GatewayHarness h = drafting();
        h.dm("long");
        var run = h.agent.run(0);
        String first = "a".repeat(4090);
        run.delta(first + "\n\nsecond part");
        h.advanceMillis(1000);
        run.complete(first + "\n\nsecond part, done.");
        h.advanceMillis(1000);
        assertEquals(List.of(first, "second part, done."), h.channel.texts());
        assertEquals(Map.of(), h.channel.liveDrafts());
    }

    @Test
    void aStopMidStream_sendsThePartialTextWithItsMark() {
        GatewayHarness h = drafting();
        h.dm("hi");
        var run = h.agent.run(0);
        run.delta("Partial answer");
        h.gateway.stop(SessionKey.of("test:dm:user"));
        run.finishAborted();
        h.advanceMillis(1000);
        assertEquals(List.of("Partial answer\n\n" + LiveAnswer.STOPPED), h.channel.texts(),
                "a draft would vanish: the marked text is kept as a message");
    }

    @Test
    void aRefusedDraftUpdate_sendsTheWholeAnswerAsAMessage_onceComplete() {
        GatewayHarness h = drafting();
        h.dm("hi");
        var run = h.agent.run(0);
        run.delta("First part.");
        h.channel.failNextEdits(SendFailure.refused("HTTP 400 draft refused"));
        run.delta(" Second");
        h.advanceMillis(1000);
        run.complete("First part. Second part.");
        h.advanceMillis(1000);
        assertEquals(List.of("First part. Second part."), h.channel.texts(),
                "nothing of a draft is kept, so nothing counts as shown: the whole answer goes");
    }

    @Test
    void aDraftIsNotRecordedForACrash_theChatDoesNotKeepIt() {
        GatewayHarness h = drafting();
        h.dm("hi");
        h.agent.run(0).delta("Partial");
        h.advanceMillis(1000);
        assertEquals(List.of(), journal.liveMessages(journal.pending().stream().map(JournalEntry::seq).toList()));
    }

    @Test
    void aStreamThatMustBeFinished_isStoppedWithItsFinalText_andCountsAsShownWhenAnUpdateFails() {
        GatewayHarness h = new GatewayHarness(s -> s, CommandHandler.NONE, journal, new ManualTime());
        h.channel.streaming(Streaming.every(Duration.ofSeconds(1))).streams(true);
        h.dm("hi");
        var run = h.agent.run(0);
        run.delta("First part.");
        h.channel.failNextEdits(SendFailure.refused("HTTP 400 not in streaming state"));
        run.delta(" Second");
        h.advanceMillis(1000);
        run.complete("First part. Second part.");
        h.advanceMillis(1000);
        assertEquals(List.of("stream s1 First part.", "edit s1 First part. Second", "stop s1 First part.",
                "post p2 Second part."), h.channel.calls(),
                "the stream is stopped as it is; only the rest follows: nothing twice");
        assertEquals(List.of("First part.", "Second part."), h.channel.screen());
    }
}
