package dev.laneway.channels.slack;

import static dev.laneway.channels.slack.SlackEvents.channelMessage;
import static dev.laneway.channels.slack.SlackEvents.eventsApi;
import static dev.laneway.channels.slack.SlackEvents.mention;
import static dev.laneway.channels.slack.SlackEvents.message;
import static dev.laneway.channels.slack.SlackEvents.newEnvelopeId;
import static dev.laneway.channels.slack.SlackEvents.ts;
import static dev.laneway.core.testing.Await.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.testing.ScriptedAgent;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Threads, mention gating and what the channel ignores, with the real SDK against the fake. */
class SlackThreadsAndMentionsTest {

    private static final String MENTION = "<@" + FakeSlackApi.BOT_USER + ">";

    @Test
    void topLevelMention_isAnsweredInANewThreadUnderIt() throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, CommandHandler.NONE)) {
            String ts = ts();
            rig.deliver(eventsApi(newEnvelopeId(), mention("U1", "C1", MENTION + " what's up?", ts, null)));

            ScriptedAgent.ScriptedRun run = rig.awaitRun(0);
            assertEquals("what's up?", run.prompt());
            InboundMessage message = rig.received.get(0);
            assertEquals(ts, message.threadId());
            assertFalse(message.direct());
            assertTrue(message.mentionsBot());

            run.complete("all good");
            until("the reply", () -> rig.api.posts().size() == 1);
            assertEquals("C1", rig.api.posts().get(0).param("channel"));
            assertEquals(ts, rig.api.posts().get(0).param("thread_ts"));
        }
    }

    @Test
    void burstInAThreadDuringARun_getsOneCollectedReplyInThatThread() throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, CommandHandler.NONE)) {
            rig.api.user("U1", "Ann", false);
            rig.api.user("U2", "Bob", false);
            String root = ts();
            rig.deliver(eventsApi(newEnvelopeId(), mention("U1", "C1", MENTION + " plan the trip", root, null)));
            ScriptedAgent.ScriptedRun first = rig.awaitRun(0);

            // the thread is now one the bot takes part in: follow-ups need no mention
            rig.deliver(eventsApi(newEnvelopeId(), channelMessage("U1", "C1", "by train", ts(), root)));
            rig.deliver(eventsApi(newEnvelopeId(), channelMessage("U2", "C1", "on Friday", ts(), root)));
            rig.deliver(eventsApi(newEnvelopeId(), channelMessage("U1", "C1", "for two", ts(), root)));
            until("the burst to reach the gateway", () -> rig.received.size() == 4);
            assertEquals(1, rig.agent.runs().size(), "the burst waits behind the open run");

            first.complete("On it.");
            ScriptedAgent.ScriptedRun collected = rig.awaitRun(1);
            String prompt = collected.prompt();
            assertTrue(prompt.startsWith("[Queued messages while agent was busy]"), prompt);
            assertTrue(prompt.contains("Queued #1 (from Ann)\nby train"), prompt);
            assertTrue(prompt.contains("Queued #2 (from Bob)\non Friday"), prompt);
            assertTrue(prompt.contains("Queued #3 (from Ann)\nfor two"), prompt);

            collected.complete("Train on Friday for two: booked.");
            until("both replies", () -> rig.api.posts().size() == 2);
            assertEquals(2, rig.agent.runs().size(), "one collected run for the whole burst");
            for (FakeSlackApi.Call post : rig.api.posts()) {
                assertEquals("C1", post.param("channel"));
                assertEquals(root, post.param("thread_ts"));
            }
            assertEquals("Train on Friday for two: booked.", rig.api.posts().get(1).param("text"));
        }
    }

    @Test
    void mentionGating_channelMessagesWithoutAMentionAreIgnored_andMentionsPass() throws Exception {
        try (SlackRig rig = SlackRig.recording(true)) {
            rig.deliver(eventsApi(newEnvelopeId(), channelMessage("U1", "C1", "just chatting", ts(), null)));
            rig.deliver(eventsApi(newEnvelopeId(), channelMessage("U1", "C1", "in someone's thread", ts(), ts())));
            String mentioned = ts();
            rig.deliver(eventsApi(newEnvelopeId(), channelMessage("U1", "C1", "hey " + MENTION + " help", mentioned, null)));

            until("the mention", () -> rig.received.size() == 1);
            rig.deliver(eventsApi(newEnvelopeId(), SlackEvents.dm("U1", "D1", "sentinel", ts())));
            until("the sentinel", () -> rig.received.size() == 2);
            InboundMessage message = rig.received.get(0);
            assertEquals("hey help", message.text());
            assertEquals(mentioned, message.platformMessageId());
            assertEquals(mentioned, message.threadId());
            assertTrue(message.mentionsBot());
        }
    }

    @Test
    void withoutRequireMention_everyChannelMessagePasses_andStartsAThread() throws Exception {
        try (SlackRig rig = SlackRig.recording(false)) {
            String ts = ts();
            rig.deliver(eventsApi(newEnvelopeId(), channelMessage("U1", "C1", "anyone around?", ts, null)));

            until("the message", () -> rig.received.size() == 1);
            InboundMessage message = rig.received.get(0);
            assertEquals("anyone around?", message.text());
            assertEquals(ts, message.threadId());
            assertFalse(message.mentionsBot());
        }
    }

    @Test
    void theBotsOwnMessages_otherAppsMessages_botUsers_andEdits_areIgnored() throws Exception {
        try (SlackRig rig = SlackRig.recording(false)) {
            rig.api.botUser("UBOTUSER", "Helper");
            rig.deliver(eventsApi(newEnvelopeId(), channelMessage("UBOTUSER", "C1", "a bot user's message", ts(), null)));
            JsonObject otherApp = channelMessage("U7", "C1", MENTION + " another app talking", ts(), null);
            otherApp.addProperty("bot_id", "B7");
            rig.deliver(eventsApi(newEnvelopeId(), otherApp));
            rig.deliver(eventsApi(newEnvelopeId(), channelMessage(FakeSlackApi.BOT_USER, "C1", "my own reply", ts(), null)));
            JsonObject botMessage = channelMessage("U9", "C1", "from an integration", ts(), null);
            botMessage.addProperty("subtype", "bot_message");
            botMessage.addProperty("bot_id", "B9");
            rig.deliver(eventsApi(newEnvelopeId(), botMessage));
            JsonObject ownBot = channelMessage("U8", "C1", "posted by this app", ts(), null);
            ownBot.addProperty("bot_id", FakeSlackApi.BOT_ID);
            rig.deliver(eventsApi(newEnvelopeId(), ownBot));
            JsonObject edit = channelMessage("U1", "C1", "edited", ts(), null);
            edit.addProperty("subtype", "message_changed");
            rig.deliver(eventsApi(newEnvelopeId(), edit));
            rig.deliver(eventsApi(newEnvelopeId(), channelMessage("U1", "C1", "a person", ts(), null)));

            until("the person's message", () -> rig.received.size() == 1);
            rig.deliver(eventsApi(newEnvelopeId(), SlackEvents.dm("U1", "D1", "sentinel", ts())));
            until("the sentinel", () -> rig.received.size() == 2);
            assertEquals(List.of("a person", "sentinel"), rig.received.stream().map(InboundMessage::text).toList());
        }
    }

    @Test
    void aStrangersMention_doesNotOpenTheThreadToUnmentionedFollowUps() throws Exception {
        try (SlackRig rig = SlackRig.recording(true, List.of("U1"))) {
            String strangers = ts();
            rig.deliver(eventsApi(newEnvelopeId(), mention("U9", "C1", MENTION + " hi", strangers, null)));
            rig.deliver(eventsApi(newEnvelopeId(), channelMessage("U1", "C1", "unmentioned in the stranger's thread",
                    ts(), strangers)));
            String allowed = ts();
            rig.deliver(eventsApi(newEnvelopeId(), mention("U1", "C1", MENTION + " hello", allowed, null)));
            rig.deliver(eventsApi(newEnvelopeId(), channelMessage("U1", "C1", "unmentioned follow-up", ts(), allowed)));

            until("the allowed sender's follow-up", () -> rig.received.size() == 3);
            assertEquals(List.of("hi", "hello", "unmentioned follow-up"),
                    rig.received.stream().map(InboundMessage::text).toList(),
                    "the stranger's mention goes to the gateway (which denies it) but engages nothing");
        }
    }

    @Test
    void messageAndAppMentionForOneMessage_areDeliveredOnce() throws Exception {
        try (SlackRig rig = SlackRig.recording(true)) {
            String ts = ts();
            rig.deliver(eventsApi(newEnvelopeId(), message("U1", "C1", "channel", MENTION + " hi", ts, null)));
            rig.deliver(eventsApi(newEnvelopeId(), mention("U1", "C1", MENTION + " hi", ts, null)));
            rig.deliver(eventsApi(newEnvelopeId(), SlackEvents.dm("U1", "D1", "sentinel", ts())));

            until("the sentinel", () -> rig.received.stream().anyMatch(m -> m.text().equals("sentinel")));
            assertEquals(2, rig.received.size(), rig.received.toString());
        }
    }
}
