package dev.laneway.channels.slack;

import static dev.laneway.channels.slack.SlackEvents.dm;
import static dev.laneway.channels.slack.SlackEvents.eventsApi;
import static dev.laneway.channels.slack.SlackEvents.newEnvelopeId;
import static dev.laneway.channels.slack.SlackEvents.ts;
import static dev.laneway.channels.slack.SlackRig.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Route;
import dev.laneway.core.channel.TextChunker;
import dev.laneway.core.command.CommandHandler;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Outbound: chunking through the gateway's outbox, and 429 handling, against the fake. */
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
            await(expectedChunks + " messages", () -> rig.api.posts().size() == expectedChunks);

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
    void rateLimitedPost_waitsForRetryAfter_thenSucceeds() throws Exception {
        try (SlackRig rig = SlackRig.recording(true)) {
            rig.api.rateLimitPosts(1, 3);
            rig.channel.send(new Route("slack", "default", "C1", "1700000000.000001", null), "hello");

            List<FakeSlackApi.Call> attempts = rig.api.calls("chat.postMessage");
            assertEquals(List.of(429, 200), attempts.stream().map(FakeSlackApi.Call::status).toList());
            assertEquals(List.of(Duration.ofSeconds(3)), rig.clock.sleeps());
            assertEquals("1700000000.000001", attempts.get(1).param("thread_ts"));
            assertEquals(List.of("slack"), rig.rateLimits, "the 429 is counted for operators");
        }
    }

    @Test
    void aRateLimitedReaction_isCounted_andDoesNotHoldUpTheReply() throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, dev.laneway.core.command.CommandHandler.NONE)) {
            rig.api.rateLimitReactions(1);
            rig.deliver(eventsApi(newEnvelopeId(), dm("U1", "D1", "hello", ts())));
            rig.awaitRun(0).complete("hi");
            await("the reply", () -> rig.api.posts().size() == 1);
            await("the 429 to be counted", () -> rig.rateLimits.equals(List.of("slack")));
            assertEquals(List.of(), rig.clock.sleeps(), "a reaction is never worth waiting for");
        }
    }

    @Test
    void rateLimitThatNeverEnds_givesUpAfterBoundedAttempts_namingTheChannel() throws Exception {
        try (SlackRig rig = SlackRig.recording(true)) {
            rig.api.rateLimitPosts(100, 1);
            IOException error = assertThrows(IOException.class,
                    () -> rig.channel.send(new Route("slack", "default", "C9", null, null), "hello"));
            assertTrue(error.getMessage().contains("C9") && error.getMessage().contains("rate limited"),
                    error.getMessage());
            assertEquals(SlackOptions.defaults().maxSendAttempts(), rig.api.calls("chat.postMessage").size());
        }
    }

    @Test
    void afterStop_theSocketIsClosed_butARunStillFinishingCanDeliverItsReply() throws Exception {
        try (SlackRig rig = SlackRig.recording(true)) {
            rig.channel.stop();
            assertEquals(false, rig.channel.connected());
            await("the socket to close", () -> rig.socket.openConnections() == 0);

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
