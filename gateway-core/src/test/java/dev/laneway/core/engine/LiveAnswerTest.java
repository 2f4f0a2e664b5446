package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.SessionKey;
import dev.laneway.core.channel.SendFailure;
import dev.laneway.core.channel.Streaming;
import dev.laneway.core.channel.TextChunker;
import dev.laneway.core.testing.GatewayHarness;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Answers streamed into the chat while they are written (docs/behaviour.md §16). */
class LiveAnswerTest {

    private static final SessionKey SESSION = SessionKey.of("test:dm:user");

    private static GatewayHarness streaming() {
        GatewayHarness h = new GatewayHarness();
        h.channel.streaming(Streaming.every(Duration.ofSeconds(1)));
        return h;
    }

    @Test
    void firstDelta_isPostedAtOnce_laterOnesEditIt_atMostOncePerInterval_andTheEndIsExactlyTheAnswer() {
        GatewayHarness h = streaming();
        String id = h.dm("hi");
        var run = h.agent.run(0);
        run.delta("Hel");
        assertEquals(List.of("post p1 Hel"), h.channel.calls(), "the first text shows at once");
        run.delta("lo").delta(" wor");
        assertEquals(1, h.channel.calls().size(), "a change within the interval waits");
        h.advanceMillis(1000);
        assertEquals(List.of("post p1 Hel", "edit p1 Hello wor"), h.channel.calls(), "one edit shows both deltas");
        run.delta("ld");
        run.complete("Hello world!");
        h.advanceMillis(1000);
        assertEquals(List.of("post p1 Hel", "edit p1 Hello wor", "edit p1 Hello world!"), h.channel.calls());
        assertEquals(List.of("Hello world!"), h.channel.screen());
        assertEquals(List.of("Hel"), h.channel.texts(), "one message was sent; the rest were edits");
        assertEquals(Disposition.RAN, h.dispositions.of(id));
        List<String> progress = h.channel.progress();
        assertTrue(progress.indexOf("edit p1 Hello world!") < progress.indexOf("settled " + id),
                "the message is settled after its final text is shown: " + progress);
    }

    @Test
    void anAgentThatDoesNotStream_isAnsweredWithAPlainReply() {
        GatewayHarness h = streaming();
        h.dm("hi");
        h.agent.run(0).complete("Whole answer");
        assertEquals(List.of(), h.channel.calls());
        assertEquals(List.of("Whole answer"), h.channel.texts());
    }

    @Test
    void streamingOff_dropsDeltas_andSendsTheAnswerOnce() {
        GatewayHarness h = new GatewayHarness();
        h.dm("hi");
        h.agent.run(0).delta("Whole").delta(" answer").complete("Whole answer");
        assertEquals(List.of(), h.channel.calls());
        assertEquals(List.of("Whole answer"), h.channel.texts());
    }

    @Test
    void textOutgrowingOneMessage_continuesInANewOne_atAChunkBoundary_neverInsideAFence() {
        GatewayHarness h = streaming();
        h.dm("long");
        var run = h.agent.run(0);
        String prose = "Lanes keep one run per conversation. ".repeat(100).strip();
        StringBuilder code = new StringBuilder("```java\n");
        for (int i = 0; i < 40; i++) {
            code.append("    lanes.acquire(\"session:").append(i).append("\");\n");
        }
        String answer = prose + "\n\n" + code + "```\n\nThat is all.";
        StringBuilder so = new StringBuilder();
        for (int at = 0; at < answer.length(); at += 300) {
            String delta = answer.substring(at, Math.min(answer.length(), at + 300));
            so.append(delta);
            run.delta(delta);
            h.advanceMillis(1000);
            h.channel.screen().forEach(m -> assertTrue(m.length() <= 4096, "a message of " + m.length()));
        }
        run.complete(answer);
        h.advanceMillis(1000);
        assertEquals(TextChunker.split(answer, 4096), h.channel.screen(), "exactly the chunks a plain reply sends");
        assertEquals(2, h.channel.screen().size());
        assertTrue(h.channel.screen().get(1).startsWith("```java"), "the fence moved whole to the second message");
    }

    @Test
    void aRateLimitedEdit_pausesTheChat_thenTheRestGoesAsNewMessages_nothingLostNothingTwice() {
        GatewayHarness h = streaming();
        String id = h.dm("hi");
        var run = h.agent.run(0);
        run.delta("First part.");
        h.channel.failNextEdits(SendFailure.rateLimited(Duration.ofSeconds(5), "HTTP 429"));
        run.delta(" Second");
        h.advanceMillis(1000);
        assertEquals(List.of("post p1 First part.", "edit p1 First part. Second"), h.channel.calls());
        run.delta(" part.");
        h.advanceMillis(1000);
        assertEquals(2, h.channel.calls().size(), "nothing more is tried while the chat waits out its 429");
        run.complete("First part. Second part.");
        assertEquals(2, h.channel.calls().size(), "still waiting");
        h.advance(Duration.ofSeconds(5));
        assertEquals(List.of("First part.", "Second part."), h.channel.screen());
        assertEquals(3, h.channel.calls().size(), "no edit after the 429: one new message with the rest");
        assertEquals(Disposition.RAN, h.dispositions.of(id));
    }

    @Test
    void aRefusedEdit_sendsTheRestAsANewMessage() {
        GatewayHarness h = streaming();
        h.dm("hi");
        var run = h.agent.run(0);
        run.delta("```\ncode line one\n");
        h.channel.failNextEdits(SendFailure.refused("HTTP 400 message can't be edited"));
        run.delta("code line two\n```\nDone.");
        run.complete("```\ncode line one\ncode line two\n```\nDone.");
        assertEquals(List.of("```\ncode line one\n", "```\ncode line two\n```\nDone."), h.channel.screen(),
                "the rest reopens the fence it starts in");
    }

    @Test
    void stopMidStream_marksThePartialTextStopped_andTheNextAnswerStartsFresh() {
        GatewayHarness h = streaming();
        h.dm("hi");
        var run = h.agent.run(0);
        run.delta("Partial answer");
        h.gateway.stop(SESSION);
        run.delta(" that goes on").finishAborted();
        assertEquals(List.of("Partial answer\n\n" + LiveAnswer.STOPPED), h.channel.screen());
        h.dm("again");
        h.agent.run(1).delta("New").complete("New answer");
        h.advanceMillis(1000);
        assertEquals(List.of("Partial answer\n\n" + LiveAnswer.STOPPED, "New answer"), h.channel.screen());
    }

    @Test
    void interruptMidStream_marksThePartialTextStopped_andTheInterruptingMessageGetsItsOwnAnswer() {
        GatewayHarness h = new GatewayHarness(s -> s.queueDefaults(
                new QueueSettings(QueueMode.INTERRUPT, Duration.ZERO, 20, DropPolicy.SUMMARIZE)));
        h.channel.streaming(Streaming.every(Duration.ofSeconds(1)));
        h.dm("first");
        h.agent.run(0).delta("Half of the first");
        h.dm("second");
        h.agent.run(0).finishAborted();
        h.advanceMillis(1000);
        h.agent.run(1).delta("Second").complete("Second answer");
        h.advanceMillis(1000);
        assertEquals(List.of("Half of the first\n\n" + LiveAnswer.STOPPED, "Second answer"), h.channel.screen());
    }

    @Test
    void aRunThatFailsMidStream_marksThePartialTextInterrupted_beforeTheFailureNotice() {
        GatewayHarness h = new GatewayHarness(s -> s.failureRetries(0));
        h.channel.streaming(Streaming.every(Duration.ofSeconds(1)));
        h.dm("hi");
        h.agent.run(0).delta("Half");
        h.agent.run(0).fail("HTTP 500", false);
        assertEquals(List.of("Half\n\n" + LiveAnswer.INTERRUPTED), h.channel.screen());
        assertEquals(List.of("Half", "⚠️ Sorry, something went wrong while answering. (HTTP 500)"), h.channel.texts());
    }

    @Test
    void aSteeredMessage_isAnsweredInTheRunsStream_asItsNextLiveMessage() {
        GatewayHarness h = new GatewayHarness(s -> s.queueDefaults(
                new QueueSettings(QueueMode.STEER, Duration.ofSeconds(1), 20, DropPolicy.SUMMARIZE)));
        h.channel.streaming(Streaming.every(Duration.ofSeconds(1)));
        String first = h.dm("first");
        var run = h.agent.run(0);
        run.delta("Answer one");
        String steered = h.dm("and also this");
        run.reply("Answer one.");
        run.delta("Answer two").replyAnsweringSteers("Answer two, for the steer.");
        run.complete();
        h.advanceMillis(1000);
        assertEquals(List.of("Answer one.", "Answer two, for the steer."), h.channel.screen());
        assertEquals(1, h.agent.runs().size(), "the steer never ran on its own");
        assertEquals(Disposition.RAN, h.dispositions.of(first));
        assertEquals(Disposition.STEERED, h.dispositions.of(steered));
    }

    @Test
    void toolProgress_showsInTheLiveMessage_andIsReplacedByTheAnswer() {
        GatewayHarness h = streaming();
        h.dm("time?");
        var run = h.agent.run(0);
        run.toolStep("current_time", "started");
        assertEquals(List.of("🔧 current_time…"), h.channel.screen());
        run.toolStep("current_time", "done");
        h.advanceMillis(1000);
        run.delta("It is noon.");
        h.advanceMillis(1000);
        run.complete("It is noon.");
        assertEquals(List.of("It is noon."), h.channel.screen());
    }

    @Test
    void aRetriedModelCall_replacesWhatItHadWritten() {
        GatewayHarness h = streaming();
        h.dm("hi");
        var run = h.agent.run(0);
        run.delta("Draft that breaks");
        run.retrying("HTTP 503").delta("Fresh");
        h.advanceMillis(1000);
        run.complete("Fresh answer");
        assertEquals(List.of("Fresh answer"), h.channel.screen());
    }

    @Test
    void aToolLineThatCouldNotBeReplaced_keepsShowing_andTheWholeAnswerGoesAsANewMessage() {
        GatewayHarness h = streaming();
        String id = h.dm("weather?");
        var run = h.agent.run(0);
        run.toolStep("web_search", "started");
        assertEquals(List.of("🔧 web_search…"), h.channel.screen());
        h.channel.failNextEdits(SendFailure.rateLimited(Duration.ofSeconds(5), "HTTP 429"));
        run.toolStep("web_search", "done");
        run.delta("Paris is 12°C");
        h.advanceMillis(1000);
        run.complete("Paris is 12°C and cloudy.");
        h.advance(Duration.ofSeconds(5));
        assertEquals(List.of("🔧 web_search…", "Paris is 12°C and cloudy."), h.channel.screen(),
                "the tool line holds none of the answer: all of it follows");
        assertEquals(Disposition.RAN, h.dispositions.of(id));
    }

    @Test
    void aRetriedModelCall_whoseEditWasRefused_sendsTheNewAnswerWhole() {
        GatewayHarness h = streaming();
        h.dm("hi");
        var run = h.agent.run(0);
        run.delta("Draft that breaks off somewhere");
        h.channel.failNextEdits(SendFailure.refused("HTTP 400 message can't be edited"));
        run.retrying("HTTP 503").delta("Fresh");
        h.advanceMillis(1000);
        run.complete("Fresh answer");
        assertEquals(List.of("Draft that breaks off somewhere", "Fresh answer"), h.channel.screen(),
                "the first attempt's text is no part of the answer");
    }

    @Test
    void textBeforeAToolLine_thatCouldNotBeEdited_isNotSentTwice() {
        GatewayHarness h = streaming();
        h.dm("weather?");
        var run = h.agent.run(0);
        run.delta("Let me look.");
        h.advanceMillis(1000);
        run.toolStep("web_search", "started");
        h.advanceMillis(1000);
        assertEquals(List.of("Let me look.\n\n🔧 web_search…"), h.channel.screen());
        h.channel.failNextEdits(SendFailure.refused("HTTP 400 message can't be edited"));
        run.toolStep("web_search", "done");
        run.delta(" Paris is 12°C.");
        h.advanceMillis(1000);
        run.complete("Let me look. Paris is 12°C.");
        assertEquals(List.of("Let me look.\n\n🔧 web_search…", "Paris is 12°C."), h.channel.screen());
    }
}
