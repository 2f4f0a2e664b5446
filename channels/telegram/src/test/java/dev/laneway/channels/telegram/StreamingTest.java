package dev.laneway.channels.telegram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.channel.Streaming;
import dev.laneway.core.testing.Await;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Answers streamed into a Telegram chat: send, then edit (docs/behaviour.md §16). */
class StreamingTest {

    @Test
    void streamedAnswer_isOneSendThenEdits_andEndsAsTheNonStreamedAnswer() throws Exception {
        String answer = "**Lanes** keep one run per conversation.";
        List<String> plain;
        try (Rig rig = Rig.with().settings(s -> s.withStreaming(Streaming.OFF)).start()) {
            rig.api.dm(Tg.ANN, "explain");
            rig.run(0).delta("**Lanes** keep").complete(answer);
            Await.until("the reply", () -> rig.api.screen(Tg.ANN.id()).size() == 1);
            plain = rig.api.screen(Tg.ANN.id());
            assertEquals(List.of(), rig.api.calls("editMessageText"), "streaming off: no edit");
        }
        try (Rig rig = Rig.start()) {
            rig.api.dm(Tg.ANN, "explain");
            var run = rig.run(0);
            run.delta("**Lanes** keep");
            Await.until("the first text", () -> rig.api.sentTo(Tg.ANN.id()).size() == 1);
            assertEquals("Lanes keep", rig.api.sentTo(Tg.ANN.id()).get(0).visible());
            run.delta(" one run");
            rig.time.advance(Duration.ofSeconds(1)); // the update waits out the least interval between edits
            Await.until("an edit", () -> rig.api.calls("editMessageText").size() == 1);
            run.complete(answer);
            Await.until("the final edit", () -> rig.api.calls("editMessageText").size() == 2);
            List<FakeBotApi.Call> edits = rig.api.calls("editMessageText");
            int id = rig.api.sentTo(Tg.ANN.id()).get(0).messageId();
            edits.forEach(edit -> assertEquals(id, edit.body().path("message_id").asInt(), "edits the sent message"));
            assertEquals("<b>Lanes</b> keep one run", edits.get(0).body().path("text").asText());
            assertEquals("html", edits.get(1).body().path("parse_mode").asText());
            assertEquals(plain, rig.api.screen(Tg.ANN.id()), "what the user finally sees equals the plain reply");
            assertEquals(1, rig.api.sentTo(Tg.ANN.id()).size(), "one message");
        }
    }

    @Test
    void aRateLimitedEdit_waitsRetryAfter_thenSendsTheRestAsANewMessage() throws Exception {
        try (Rig rig = Rig.start()) {
            rig.api.dm(Tg.ANN, "go");
            var run = rig.run(0);
            run.delta("First part.");
            Await.until("the first text", () -> rig.api.sentTo(Tg.ANN.id()).size() == 1);
            rig.api.rateLimitNextEdit(Long.toString(Tg.ANN.id()), 7);
            run.delta(" Second");
            rig.time.advance(Duration.ofSeconds(1)); // the update waits out the least interval between edits
            Await.until("the 429", () -> rig.api.calls("editMessageText").size() == 1);
            run.complete("First part. Second part.");
            rig.time.awaitPending(Duration.ofSeconds(7));
            assertEquals(1, rig.api.sent().size(), "nothing goes while the chat waits out retry_after");
            rig.time.advance(Duration.ofSeconds(7));
            Await.until("the rest", () -> rig.api.sentTo(Tg.ANN.id()).size() == 2);
            assertEquals(List.of("First part.", "Second part."), rig.api.screen(Tg.ANN.id()));
            assertEquals(1, rig.api.calls("editMessageText").size(), "no edit after the 429");
            assertEquals(List.of("telegram"), rig.rateLimits);
        }
    }

    @Test
    void overflowPastTheLimitMidStream_continuesInASecondMessage_endingAsTheChunks() throws Exception {
        String answer = "word ".repeat(1200).strip();   // ~6000 characters: two messages
        try (Rig rig = Rig.start()) {
            rig.api.dm(Tg.ANN, "talk");
            var run = rig.run(0);
            for (int at = 0; at < answer.length(); at += 1500) {
                run.delta(answer.substring(at, Math.min(answer.length(), at + 1500)));
                int calls = rig.api.calls("sendMessage").size() + rig.api.calls("editMessageText").size();
                rig.time.advance(Duration.ofSeconds(1));
                Await.until("an update", () -> rig.api.calls("sendMessage").size()
                        + rig.api.calls("editMessageText").size() > calls);
            }
            run.complete(answer);
            Await.until("two messages, the whole answer", () -> rig.api.screen(Tg.ANN.id()).size() == 2
                    && String.join(" ", rig.api.screen(Tg.ANN.id())).equals(answer));
            rig.api.screen(Tg.ANN.id()).forEach(m -> assertTrue(m.length() <= 4096, "a message of " + m.length()));
            rig.api.calls("editMessageText").forEach(c -> assertTrue(c.body().path("text").asText().length() <= 4096));
        }
    }

    @Test
    void inAGroup_theLiveAnswerChangesAtMostEveryThreeSeconds_withinTheGroupsTwentyAMinute() throws Exception {
        TelegramChannel channel = new TelegramChannel(TelegramSettings.of(new dev.laneway.config.Secret(FakeBotApi.TOKEN),
                java.net.URI.create("http://127.0.0.1:9")));
        assertEquals(Streaming.every(Duration.ofSeconds(1)),
                channel.streaming(new dev.laneway.core.Route("telegram", "default", "42", null, "1")));
        assertEquals(Streaming.every(Duration.ofSeconds(3)),
                channel.streaming(new dev.laneway.core.Route("telegram", "default", "-1001", null, "1")));
        TelegramChannel off = new TelegramChannel(TelegramSettings.of(new dev.laneway.config.Secret(FakeBotApi.TOKEN),
                java.net.URI.create("http://127.0.0.1:9")).withStreaming(Streaming.OFF));
        assertEquals(Streaming.OFF, off.streaming(new dev.laneway.core.Route("telegram", "default", "-1001", null, "1")));
    }

    @Test
    void stopMidStream_leavesThePartialTextMarkedStopped() throws Exception {
        try (Rig rig = Rig.start()) {
            rig.api.dm(Tg.ANN, "go");
            var run = rig.run(0);
            run.delta("Half an answer");
            Await.until("the first text", () -> rig.api.sentTo(Tg.ANN.id()).size() == 1);
            rig.api.dm(Tg.ANN, "/stop");
            Await.until("the abort", run::abortRequested);
            run.finishAborted();
            Await.until("the mark", () -> rig.api.screen(Tg.ANN.id()).contains("Half an answer\n\n⏹ Stopped."));
        }
    }
}
