package dev.laneway.channels.telegram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.testing.Await;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Replies as Telegram receives them: chunks, formatting, rate limits, typing. */
class OutboundTest {

    @Test
    void longReply_isChunkedAt4096_andACodeFenceAcrossTheLimitIsNeverSplit() throws Exception {
        String prose = "Lanes keep one run per conversation. ".repeat(100).strip();          // ~3700 characters
        StringBuilder code = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            code.append("    lanes.acquire(\"session:").append(i).append("\"); // step ").append(i).append('\n');
        }
        String block = "```java\n" + code + "```";
        String reply = prose + "\n\n" + block + "\n\nThat is all.";
        assertTrue(prose.length() < 4096 && prose.length() + block.length() > 4096, "the fence crosses the limit");

        try (Rig rig = Rig.with().agent(new EchoAgent(prompt -> reply)).start()) {
            rig.api.dm(Tg.ANN, "show me");
            Await.until("all chunks", () -> rig.api.sentTo(Tg.ANN.id()).size() >= 2
                    && rig.api.sentTo(Tg.ANN.id()).getLast().visible().endsWith("That is all."));
            List<FakeBotApi.Sent> chunks = rig.api.sentTo(Tg.ANN.id());
            chunks.forEach(chunk -> assertTrue(chunk.visible().length() <= 4096, "chunk of " + chunk.visible().length()));
            assertEquals(prose, chunks.get(0).visible(), "the cut moved before the fence");
            FakeBotApi.Sent withCode = chunks.get(1);
            assertEquals("html", withCode.parseMode());
            assertTrue(withCode.text().startsWith("<pre><code class=\"language-java\">"), withCode.text());
            assertTrue(withCode.visible().startsWith(code.toString().stripTrailing()), "the whole block in one message");
            chunks.forEach(chunk -> assertFalse(chunk.visible().contains("```"), "no raw fence reached the user"));
        }
    }

    @Test
    void wordsOverTheLimit_areSplitByTheOutbox_intoThreeMessages() throws Exception {
        String reply = "word ".repeat(2000).strip();
        try (Rig rig = Rig.with().agent(new EchoAgent(prompt -> reply)).start()) {
            rig.api.dm(Tg.ANN, "talk");
            Await.until("three chunks", () -> rig.api.sentTo(Tg.ANN.id()).size() == 3);
            List<FakeBotApi.Sent> chunks = rig.api.sentTo(Tg.ANN.id());
            chunks.forEach(chunk -> assertTrue(chunk.visible().length() <= 4096, "chunk of " + chunk.visible().length()));
            assertEquals(reply.replace(" ", ""), chunks.stream().map(FakeBotApi.Sent::visible)
                    .reduce("", String::concat).replace(" ", ""), "nothing lost");
        }
    }

    @Test
    void fenceLongerThanTheLimit_isClosedAndReopenedInEachChunk() throws Exception {
        StringBuilder code = new StringBuilder();
        for (int i = 0; code.length() < 9000; i++) {
            code.append("print(").append(i).append(")\n");
        }
        String reply = "```python\n" + code + "```";
        try (Rig rig = Rig.with().agent(new EchoAgent(prompt -> reply)).start()) {
            rig.api.dm(Tg.ANN, "dump");
            Await.until("three chunks", () -> rig.api.sentTo(Tg.ANN.id()).size() == 3);
            List<FakeBotApi.Sent> chunks = rig.api.sentTo(Tg.ANN.id());
            StringBuilder seen = new StringBuilder();
            for (FakeBotApi.Sent chunk : chunks) {
                assertTrue(chunk.visible().length() <= 4096);
                assertTrue(chunk.text().startsWith("<pre><code class=\"language-python\">")
                        && chunk.text().endsWith("</code></pre>"), "each chunk is a complete block");
                seen.append(chunk.visible()).append('\n');
            }
            assertEquals(code.toString(), seen.toString(), "no code lost or duplicated");
        }
    }

    @Test
    void markdown_isSentAsEscapedHtml() throws Exception {
        try (Rig rig = Rig.with().agent(new EchoAgent(prompt -> "**Done**: compare `a<b` & more")).start()) {
            rig.api.dm(Tg.ANN, "go");
            Await.until("the reply", () -> rig.api.sentTo(Tg.ANN.id()).size() == 1);
            FakeBotApi.Sent sent = rig.api.sentTo(Tg.ANN.id()).get(0);
            assertEquals("html", sent.parseMode());
            assertEquals("<b>Done</b>: compare <code>a&lt;b</code> &amp; more", sent.text());
        }
    }

    @Test
    void cantParseEntities_isRetriedAsPlainText() throws Exception {
        String reply = "**Done**: see `x`";
        try (Rig rig = Rig.with().agent(new EchoAgent(prompt -> reply)).start()) {
            rig.api.rejectNextFormatted();
            rig.api.dm(Tg.ANN, "go");
            Await.until("the reply", () -> rig.api.sentTo(Tg.ANN.id()).size() == 1);
            List<FakeBotApi.Call> attempts = rig.api.calls("sendMessage");
            assertEquals(2, attempts.size());
            assertEquals("html", attempts.get(0).body().path("parse_mode").asText());
            assertFalse(attempts.get(0).succeeded());
            FakeBotApi.Sent sent = rig.api.sentTo(Tg.ANN.id()).get(0);
            assertNull(sent.parseMode());
            assertEquals(reply, sent.text());
        }
    }

    @Test
    void rateLimited_waitsRetryAfterThenSendsOnce() throws Exception {
        try (Rig rig = Rig.with().agent(new EchoAgent()).start()) {
            rig.api.rateLimitNextSend(Long.toString(Tg.ANN.id()), 7);
            rig.api.dm(Tg.ANN, "hello");
            rig.time.awaitPending(Duration.ofSeconds(7));     // the chat waits out retry_after on a timer
            assertEquals(List.of(), rig.api.sentTo(Tg.ANN.id()));
            rig.time.advance(Duration.ofSeconds(7));
            Await.until("the reply", () -> rig.api.sentTo(Tg.ANN.id()).size() == 1);
            assertEquals(List.of("echo: hello"), rig.api.textsTo(Tg.ANN.id()));
            assertEquals(2, rig.api.calls("sendMessage").size(), "one 429, one success");
            assertEquals(List.of("telegram"), rig.rateLimits, "the 429 is counted for operators");
        }
    }

    @Test
    void rateLimitedChat_doesNotHoldUpOtherChats() throws Exception {
        try (Rig rig = Rig.with().agent(new EchoAgent()).start()) {
            rig.api.rateLimitNextSend(Long.toString(Tg.ANN.id()), 30);
            rig.api.dm(Tg.ANN, "for Ann");
            Await.until("Ann's 429", () -> rig.api.calls("sendMessage").size() == 1);
            rig.time.awaitPending(Duration.ofSeconds(30));

            rig.api.dm(Tg.BOB, "for Bob");
            Await.until("Bob's reply", () -> rig.api.sentTo(Tg.BOB.id()).size() == 1);
            assertEquals(List.of(), rig.api.sentTo(Tg.ANN.id()), "Ann's chat is still waiting");

            rig.time.advance(Duration.ofSeconds(30));
            Await.until("Ann's reply", () -> rig.api.sentTo(Tg.ANN.id()).size() == 1);
            assertEquals(List.of("echo: for Ann"), rig.api.textsTo(Tg.ANN.id()));
        }
    }

    @Test
    void typing_isSentOnAccept_andRefreshedUntilTheRunEnds() throws Exception {
        try (Rig rig = Rig.with().settings(s -> s.withTypingRefresh(Duration.ofMillis(150))).start()) {
            rig.api.dm(Tg.ANN, "think hard");
            var run = rig.run(0);
            Await.until("typing refreshed twice", () -> rig.api.typingCount(Tg.ANN.id()) >= 3);
            FakeBotApi.Call typing = rig.api.calls("sendChatAction").get(0);
            assertEquals("typing", typing.body().path("action").asText());

            run.complete("done");
            Await.until("the reply", () -> rig.api.sentTo(Tg.ANN.id()).size() == 1);
            long afterRun = rig.api.typingCount(Tg.ANN.id());
            // typing is refreshed only by a gateway timer: with none left, no refresh can come any more
            Await.until("no gateway timer left", () -> rig.time.pendingTasks() == 0);
            assertTrue(rig.api.typingCount(Tg.ANN.id()) <= afterRun + 1, "typing stops when the run ends");
        }
    }
}
