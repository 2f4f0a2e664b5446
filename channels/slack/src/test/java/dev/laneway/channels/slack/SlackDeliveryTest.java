package dev.laneway.channels.slack;

import static dev.laneway.channels.slack.SlackEvents.dm;
import static dev.laneway.channels.slack.SlackEvents.eventsApi;
import static dev.laneway.channels.slack.SlackEvents.newEnvelopeId;
import static dev.laneway.channels.slack.SlackEvents.ts;
import static dev.laneway.core.testing.Await.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Route;
import dev.laneway.core.channel.SendFailure;
import dev.laneway.core.channel.TextChunker;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.testing.LogCapture;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Outbound: chunking through the gateway's outbox, 429s, 5xx and refusals, against the fake. */
class SlackDeliveryTest {

    @Test
    void longReply_isSplitAtAbout4000Characters_neverInsideACodeFence() throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, CommandHandler.NONE)) {
            StringBuilder reply = new StringBuilder();
            for (int i = 0; i < 40; i++) {
                reply.append("Paragraph ").append(i).append(": ").append("words of the answer. ".repeat(12)).append("\n\n");
                if (i == 15) {
                    reply.append("```java\n").append("int x = 1; // a line of code\n".repeat(60)).append("```\n\n");
                }
            }
            String text = reply.toString().strip();
            int expectedChunks = TextChunker.split(text, SlackChannel.MAX_TEXT_LENGTH).size();
            assertTrue(expectedChunks >= 3, "the reply is long enough to need several messages");

            rig.deliver(eventsApi(newEnvelopeId(), dm("U1", "D1", "write a lot", ts())));
            rig.awaitRun(0).complete(text);
            until(expectedChunks + " messages", () -> rig.api.posts().size() == expectedChunks);

            List<String> posted = rig.api.posts().stream().map(post -> post.param("text")).toList();
            for (String chunk : posted) {
                assertTrue(chunk.length() <= SlackChannel.MAX_TEXT_LENGTH, "chunk of " + chunk.length());
                assertEquals(0, count(chunk, "```") % 2, "a code fence is split:\n" + chunk);
            }
            assertTrue(String.join("\n\n", posted).contains("Paragraph 39"));
            assertEquals(text.replace("```java\n", "```\n").replaceAll("\\s+", ""),
                    String.join("", posted).replaceAll("\\s+", ""),
                    "nothing lost or reordered (Slack shows no language tag: it would read as code)");
        }
    }

    @Test
    void rateLimitedPost_waitsForRetryAfterOnATimer_thenIsSentOnce_inItsThread() throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, CommandHandler.NONE)) {
            rig.api.rateLimitPosts(1, 3);
            String message = ts();
            rig.deliver(eventsApi(newEnvelopeId(), SlackEvents.mention("U1", "C1", "<@" + FakeSlackApi.BOT_USER
                    + "> hello", message, null)));
            rig.awaitRun(0).complete("hi");
            until("the 429", () -> rig.api.calls("chat.postMessage").size() == 1);
            rig.clock.awaitPending(Duration.ofSeconds(3));    // the channel waits out Retry-After, no thread sleeps
            assertEquals(List.of(), rig.api.posts());

            rig.clock.advance(Duration.ofSeconds(3));
            until("the reply", () -> rig.api.posts().size() == 1);
            List<FakeSlackApi.Call> attempts = rig.api.calls("chat.postMessage");
            assertEquals(List.of(429, 200), attempts.stream().map(FakeSlackApi.Call::status).toList());
            assertEquals(message, attempts.get(1).param("thread_ts"));
            until("the 429 to be counted", () -> rig.rateLimits.equals(List.of("slack")));
        }
    }

    @Test
    void aRateLimitedReaction_isCounted_doesNotHoldUpTheReply_andIsNeverRemoved() throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, dev.laneway.core.command.CommandHandler.NONE)) {
            rig.api.rateLimitReactions(1);
            String first = ts();
            rig.deliver(eventsApi(newEnvelopeId(), dm("U1", "D1", "hello", first)));
            rig.awaitRun(0).complete("hi");
            until("the reply", () -> rig.api.posts().size() == 1);
            until("the 429 to be counted", () -> rig.rateLimits.equals(List.of("slack")));

            String second = ts();     // its 👀 goes after the first message's end, in the chat's order
            rig.deliver(eventsApi(newEnvelopeId(), dm("U1", "D1", "again", second)));
            rig.awaitRun(1).complete("hi again");
            until("the second 👀 removed", () -> rig.api.calls("reactions.remove").size() >= 1);
            assertEquals(List.of(second), rig.api.calls("reactions.remove").stream().map(call -> call.param("timestamp"))
                    .toList(), "the first 👀 was never added: nothing to remove");
        }
    }

    @Test
    void aPost_isTriedOnceByTheChannel_andItsRateLimitNamesTheChannel() throws Exception {
        try (SlackRig rig = SlackRig.recording(true)) {
            rig.api.rateLimitPosts(100, 7);
            SendFailure failure = assertThrows(SendFailure.class,
                    () -> rig.channel.send(new Route("slack", "default", "C9", null, null), "hello"));
            assertEquals(SendFailure.Kind.RATE_LIMITED, failure.kind());
            assertEquals(Duration.ofSeconds(7), failure.retryAfter());
            assertTrue(failure.getMessage().contains("C9"), failure.getMessage());
            assertEquals(1, rig.api.calls("chat.postMessage").size(), "the outbox, not the channel, tries again");
            assertEquals(List.of("slack"), rig.rateLimits, "the 429 is counted for operators");
        }
    }

    @Test
    void aServerErrorOnce_andAProxyPageOnce_areSentAgain_once() throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, CommandHandler.NONE)) {
            rig.api.failPosts(1, 500, "{\"ok\":false,\"error\":\"internal_error\"}");
            rig.deliver(eventsApi(newEnvelopeId(), dm("U1", "D1", "hello", ts())));
            rig.awaitRun(0).complete("hi");
            until("the failed attempt", () -> rig.api.calls("chat.postMessage").size() == 1);
            skipTheBackoff(rig);
            until("the reply", () -> rig.api.posts().size() == 1);
            until("the answered record", () -> Boolean.TRUE.equals(rig.journal.answered(1)));

            rig.api.failPosts(1, 502, "<html><h1>502 Bad Gateway</h1></html>");
            rig.deliver(eventsApi(newEnvelopeId(), dm("U1", "D1", "again", ts())));
            rig.awaitRun(1).complete("hi again");
            until("the second failed attempt", () -> rig.api.calls("chat.postMessage").size() == 3);
            skipTheBackoff(rig);
            until("the second reply", () -> rig.api.posts().size() == 2);
            assertEquals(List.of("hi", "hi again"), rig.api.posts().stream().map(post -> post.param("text")).toList());
            assertEquals(4, rig.api.calls("chat.postMessage").size(), "each sent again once, not twice");
        }
    }

    @Test
    void anErrorThatEchoesTheToken_neverReachesTheLog_andTheMessageStaysPending() throws Exception {
        try (LogCapture log = LogCapture.all(); SlackRig rig = SlackRig.gateway(true, CommandHandler.NONE)) {
            rig.api.failPosts(1, 400, "{\"ok\":false,\"error\":\"invalid_auth\",\"token\":\"xoxb-test-bot\"}");
            rig.deliver(eventsApi(newEnvelopeId(), dm("U1", "D1", "hello", ts())));
            rig.awaitRun(0).complete("hi");
            until("the failure to be logged", () -> log.lines().stream().anyMatch(line -> line.mentions("stays pending")));
            rig.gateway().awaitIdle(Duration.ofSeconds(10));

            assertEquals(1, rig.journal.pending().size(), "never delivered: it runs again after a restart");
            assertTrue(log.lines().stream().anyMatch(line -> line.mentions("invalid_auth")), log.lines().toString());
            assertTrue(log.lines().stream().noneMatch(line -> line.mentions("xoxb-test-bot")), "the token was logged");
        }
    }

    /** Skips the outbox's backoff (about a second, with jitter) once its timer is set. */
    private static void skipTheBackoff(SlackRig rig) {
        until("the retry timer", () -> rig.clock.pendingDelays().stream()
                .anyMatch(d -> d.compareTo(Duration.ofMillis(800)) >= 0 && d.compareTo(Duration.ofSeconds(1)) <= 0));
        rig.clock.advance(Duration.ofSeconds(1));
    }

    @Test
    void afterStop_theSocketIsClosed_butARunStillFinishingCanDeliverItsReply() throws Exception {
        try (SlackRig rig = SlackRig.recording(true)) {
            rig.channel.stop();
            assertEquals(false, rig.channel.connected());
            until("the socket to close", () -> rig.socket.openConnections() == 0);

            rig.channel.send(new Route("slack", "default", "D1", null, null), "last words");
            assertEquals("last words", rig.api.posts().get(0).param("text"));
        }
    }

    private static int count(String text, String needle) {
        int n = 0;
        for (int at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length())) {
            n++;
        }
        return n;
    }
}
