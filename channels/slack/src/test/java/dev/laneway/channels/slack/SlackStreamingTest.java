package dev.laneway.channels.slack;

import static dev.laneway.channels.slack.SlackEvents.dm;
import static dev.laneway.channels.slack.SlackEvents.eventsApi;
import static dev.laneway.channels.slack.SlackEvents.newEnvelopeId;
import static dev.laneway.channels.slack.SlackEvents.ts;
import static dev.laneway.core.testing.Await.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.config.ChannelsConfig;
import dev.laneway.core.channel.Streaming;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Answers streamed into Slack: {@code chat.postMessage}, then {@code chat.update} (docs/behaviour.md §16). */
class SlackStreamingTest {

    @Test
    void streamedAnswer_isOnePostThenUpdates_andEndsAsTheNonStreamedAnswer() throws Exception {
        String answer = "Lanes keep **one run** per conversation.";
        List<String> plain;
        try (SlackRig rig = SlackRig.gateway(Streaming.OFF)) {
            rig.deliver(eventsApi(newEnvelopeId(), dm("U1", "D1", "explain", ts())));
            rig.awaitRun(0).delta("Lanes keep").complete(answer);
            until("the reply", () -> rig.api.screen("D1").size() == 1);
            plain = rig.api.screen("D1");
            assertEquals(List.of(), rig.api.calls("chat.update"));
        }
        try (SlackRig rig = SlackRig.gateway(ChannelsConfig.Slack.DEFAULT_STREAMING)) {
            rig.deliver(eventsApi(newEnvelopeId(), dm("U1", "D1", "explain", ts())));
            var run = rig.awaitRun(0);
            run.delta("Lanes keep");
            until("the first text", () -> rig.api.posts().size() == 1);
            assertEquals("Lanes keep", rig.api.posts().get(0).param("text"));
            run.delta(" **one run**");
            rig.clock.advance(Duration.ofSeconds(2));
            until("an update", () -> rig.api.calls("chat.update").size() == 1);
            assertEquals("Lanes keep *one run*", rig.api.calls("chat.update").get(0).param("text"), "as mrkdwn");
            run.complete(answer);
            until("the final update", () -> rig.api.calls("chat.update").size() == 2);
            until("the final text", () -> rig.api.screen("D1").equals(plain));
            rig.api.calls("chat.update").forEach(update -> {
                assertEquals("D1", update.param("channel"));
                assertEquals(rig.api.calls("chat.update").get(0).param("ts"), update.param("ts"));
            });
            assertEquals(1, rig.api.posts().size(), "one message, then updates");
        }
    }

    @Test
    void aRateLimitedUpdate_waitsRetryAfter_thenPostsTheRest_nothingTwice() throws Exception {
        try (SlackRig rig = SlackRig.gateway(ChannelsConfig.Slack.DEFAULT_STREAMING)) {
            rig.deliver(eventsApi(newEnvelopeId(), dm("U1", "D1", "go", ts())));
            var run = rig.awaitRun(0);
            run.delta("First part.");
            until("the first text", () -> rig.api.posts().size() == 1);
            rig.api.rateLimitUpdates(1, 9);
            run.delta(" Second");
            rig.clock.advance(Duration.ofSeconds(2));
            until("the 429", () -> rig.api.calls("chat.update").size() == 1);
            run.complete("First part. Second part.");
            rig.clock.awaitPending(Duration.ofSeconds(9));
            assertEquals(1, rig.api.posts().size(), "nothing goes while the channel waits out Retry-After");
            rig.clock.advance(Duration.ofSeconds(9));
            until("the rest", () -> rig.api.posts().size() == 2);
            assertEquals(List.of("First part.", "Second part."), rig.api.screen("D1"));
            assertEquals(1, rig.api.calls("chat.update").size(), "no update after the 429");
            assertTrue(rig.rateLimits.isEmpty() || rig.rateLimits.stream().allMatch("slack"::equals));
        }
    }

    @Test
    void overflowPastTheLimitMidStream_continuesInANewMessage() throws Exception {
        String answer = "Lanes keep one run per conversation. ".repeat(160).strip();  // ~5900 characters
        try (SlackRig rig = SlackRig.gateway(ChannelsConfig.Slack.DEFAULT_STREAMING)) {
            rig.deliver(eventsApi(newEnvelopeId(), dm("U1", "D1", "talk", ts())));
            var run = rig.awaitRun(0);
            for (int at = 0; at < answer.length(); at += 1500) {
                run.delta(answer.substring(at, Math.min(answer.length(), at + 1500)));
                rig.clock.advance(Duration.ofSeconds(2));
            }
            run.complete(answer);
            until("two messages with the whole answer", () -> rig.api.screen("D1").size() == 2
                    && String.join(" ", rig.api.screen("D1")).equals(answer));
            rig.api.screen("D1").forEach(m -> assertTrue(m.length() <= SlackChannel.MAX_TEXT_LENGTH));
        }
    }
}
