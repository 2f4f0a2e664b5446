package dev.laneway.channels.slack;

import static dev.laneway.channels.slack.SlackEvents.eventsApi;
import static dev.laneway.channels.slack.SlackEvents.mention;
import static dev.laneway.channels.slack.SlackEvents.newEnvelopeId;
import static dev.laneway.channels.slack.SlackEvents.ts;
import static dev.laneway.core.testing.Await.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.laneway.config.ChannelsConfig;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An answer in a thread streams with Slack's streaming methods: {@code chat.startStream} to the
 * asker, {@code chat.appendStream} while the text grows, {@code chat.stopStream} with the rest; a
 * workspace that refuses the methods is answered by {@code chat.postMessage} + {@code chat.update}
 * from then on (docs/behaviour.md §16.1, D212).
 */
class SlackStreamMethodsTest {

    private static final String ASK = "<@" + FakeSlackApi.BOT_USER + "> explain";

    private static List<String> methods(SlackRig rig) {
        return rig.api.calls().stream().map(FakeSlackApi.Call::method).filter(m -> m.startsWith("chat.")).toList();
    }

    @Test
    void aThreadReply_startsAStreamToTheAsker_appendsWhileItGrows_andStopsWithTheRest() throws Exception {
        try (SlackRig rig = SlackRig.gateway(ChannelsConfig.Slack.DEFAULT_STREAMING)) {
            String thread = ts();
            rig.deliver(eventsApi(newEnvelopeId(), mention("U1", "C1", ASK, ts(), thread)));
            var run = rig.awaitRun(0);
            run.delta("Lanes keep");
            until("the stream", () -> rig.api.calls("chat.startStream").size() == 1);
            FakeSlackApi.Call start = rig.api.calls("chat.startStream").get(0);
            assertEquals("C1", start.param("channel"));
            assertEquals(thread, start.param("thread_ts"));
            assertEquals("U1", start.param("recipient_user_id"));
            assertEquals("T1", start.param("recipient_team_id"));
            assertEquals("Lanes keep", start.param("markdown_text"));
            run.delta(" **one run**");
            rig.clock.advance(Duration.ofSeconds(2));
            until("an append", () -> rig.api.calls("chat.appendStream").size() == 1);
            assertEquals(" **one run**", rig.api.calls("chat.appendStream").get(0).param("markdown_text"),
                    "only what is new, as Markdown");
            run.complete("Lanes keep **one run** per conversation.");
            until("the stop", () -> rig.api.calls("chat.stopStream").size() == 1);
            assertEquals(" per conversation.", rig.api.calls("chat.stopStream").get(0).param("markdown_text"));
            assertEquals(List.of("Lanes keep **one run** per conversation."), rig.api.screen("C1"));
            String ts = rig.api.calls("chat.stopStream").get(0).param("ts");
            assertFalse(rig.api.streamOpen("C1", ts));
            assertEquals(List.of("chat.startStream", "chat.appendStream", "chat.stopStream"), methods(rig));
        }
    }

    @Test
    void aChangeThatIsNotAnAppend_stopsTheStream_andGoesOnByChatUpdate() throws Exception {
        try (SlackRig rig = SlackRig.gateway(ChannelsConfig.Slack.DEFAULT_STREAMING)) {
            rig.deliver(eventsApi(newEnvelopeId(), mention("U1", "C1", ASK, ts(), ts())));
            var run = rig.awaitRun(0);
            run.toolStep("current_time", "started");
            until("the stream", () -> rig.api.calls("chat.startStream").size() == 1);
            run.toolStep("current_time", "done");
            run.delta("It is noon.");
            rig.clock.advance(Duration.ofSeconds(2));
            until("the update", () -> rig.api.calls("chat.update").size() == 1);
            run.complete("It is noon.");
            until("the final text", () -> rig.api.screen("C1").equals(List.of("It is noon.")));
            assertEquals(List.of("chat.startStream", "chat.stopStream", "chat.update"), methods(rig),
                    "the tool line cannot be appended away: stopped, then replaced");
        }
    }

    @Test
    void aWorkspaceThatRefusesTheMethods_isAnsweredByChatUpdate_andRemembered() throws Exception {
        try (SlackRig rig = SlackRig.gateway(ChannelsConfig.Slack.DEFAULT_STREAMING)) {
            rig.api.refuseStreams("unknown_method");
            rig.deliver(eventsApi(newEnvelopeId(), mention("U1", "C1", ASK, ts(), ts())));
            var run = rig.awaitRun(0);
            run.delta("One");
            until("the post", () -> rig.api.posts().size() == 1);
            run.delta(" two");
            rig.clock.advance(Duration.ofSeconds(2));
            until("an update", () -> rig.api.calls("chat.update").size() == 1);
            run.complete("One two three.");
            until("the final update", () -> rig.api.calls("chat.update").size() == 2);
            assertEquals(List.of("One two three."), rig.api.screen("C1"));

            rig.deliver(eventsApi(newEnvelopeId(), mention("U2", "C1", ASK, ts(), ts())));
            var second = rig.awaitRun(1);
            second.delta("Again");
            until("the second post", () -> rig.api.posts().size() == 2);
            second.complete("Again.");
            until("its final update", () -> rig.api.calls("chat.update").size() == 3);
            assertEquals(1, rig.api.calls("chat.startStream").size(), "the workspace's refusal is remembered");
        }
    }
}
