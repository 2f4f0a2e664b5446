package dev.laneway.channels.slack;

import static dev.laneway.channels.slack.SlackEvents.dm;
import static dev.laneway.channels.slack.SlackEvents.eventsApi;
import static dev.laneway.channels.slack.SlackEvents.newEnvelopeId;
import static dev.laneway.channels.slack.SlackEvents.ts;
import static dev.laneway.core.testing.Await.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.testing.ScriptedAgent;
import org.junit.jupiter.api.Test;

/** The real SDK against the fake Slack, through a real gateway: a DM from arrival to answer. */
class SlackRoundTripTest {

    @Test
    void directMessage_isAnsweredInTheDm_inMrkdwn_withEyesWhileTheRunIsOpen() throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, CommandHandler.NONE)) {
            rig.api.user("U1", "Ann", false);
            String ts = ts();
            String envelope = newEnvelopeId();
            rig.deliver(eventsApi(envelope, dm("U1", "D1", "hello &amp; welcome", ts)));

            ScriptedAgent.ScriptedRun run = rig.awaitRun(0);
            assertEquals("hello & welcome", run.prompt());
            InboundMessage message = rig.received.get(0);
            assertEquals("slack", message.channel());
            assertEquals("D1", message.chatId());
            assertNull(message.threadId());
            assertTrue(message.direct());
            assertEquals("U1", message.senderId());
            assertEquals("Ann", message.senderName());
            assertEquals(ts, message.platformMessageId());

            until("the 👀 reaction", () -> rig.api.calls("reactions.add").size() == 1);
            FakeSlackApi.Call reaction = rig.api.calls("reactions.add").get(0);
            assertEquals("D1", reaction.param("channel"));
            assertEquals(ts, reaction.param("timestamp"));
            assertEquals("eyes", reaction.param("name"));
            assertTrue(rig.api.calls("reactions.remove").isEmpty(), "the reaction stays while the run is open");

            run.complete("Hi **Ann**, see [the docs](https://example.com/a_b)");
            until("the reply", () -> rig.api.posts().size() == 1);
            FakeSlackApi.Call post = rig.api.posts().get(0);
            assertEquals("D1", post.param("channel"));
            assertNull(post.param("thread_ts"));
            assertEquals("Hi *Ann*, see <https://example.com/a_b|the docs>", post.param("text"));
            assertEquals("xoxb-test-bot", post.token());

            until("the reaction to be removed", () -> rig.api.calls("reactions.remove").size() == 1);
            assertEquals(ts, rig.api.calls("reactions.remove").get(0).param("timestamp"));
            assertTrue(rig.socket.acks().contains(envelope));
        }
    }

    @Test
    void envelopeIsAcknowledgedBeforeTheRunFinishes() throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, CommandHandler.NONE)) {
            String envelope = newEnvelopeId();
            rig.deliver(eventsApi(envelope, dm("U1", "D1", "think hard", ts())));

            ScriptedAgent.ScriptedRun run = rig.awaitRun(0);
            until("the ack", () -> rig.socket.acks().contains(envelope));
            assertFalse(run.isDone(), "the run is still open when Slack has its ack");
            assertTrue(rig.api.posts().isEmpty());

            run.complete("done");
            until("the reply", () -> rig.api.posts().size() == 1);
        }
    }

    @Test
    void redeliveredEvent_isAcknowledgedAgain_butProcessedOnce() throws Exception {
        try (SlackRig rig = SlackRig.recording(true)) {
            String eventId = SlackEvents.newEventId();
            String first = newEnvelopeId();
            String retry = newEnvelopeId();
            var event = dm("U1", "D1", "only once", ts());
            rig.deliver(eventsApi(first, eventId, event, 0));
            rig.deliver(eventsApi(retry, eventId, event, 1));
            rig.deliver(eventsApi(newEnvelopeId(), dm("U1", "D1", "sentinel", ts())));

            until("the sentinel", () -> rig.received.stream().anyMatch(m -> m.text().equals("sentinel")));
            assertEquals(2, rig.received.size(), "the retry was not handed over: " + rig.received);
            assertEquals("only once", rig.received.get(0).text());
            until("both acks", () -> rig.socket.acks().containsAll(java.util.List.of(first, retry)));
        }
    }
}
