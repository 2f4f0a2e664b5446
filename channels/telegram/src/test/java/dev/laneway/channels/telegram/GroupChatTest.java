package dev.laneway.channels.telegram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.testing.Await;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Groups, supergroups and forum topics through the real SDK, the fake server and a real gateway. */
class GroupChatTest {

    @Test
    void requireMention_takesOnlyMentionsRepliesAndCommandsForThisBot() throws Exception {
        EchoAgent echo = new EchoAgent();
        try (Rig rig = Rig.with().agent(echo).start()) {
            rig.api.group(Tg.ANN, "just chatting among humans");
            rig.api.group(Tg.ANN, "@OtherBot what do you think?");
            rig.api.group(Tg.ANN, "/stop@OtherBot");
            int mentioned = rig.api.group(Tg.ANN, "@LanewayBot what is a lane?");
            int botMessage = Await.value("the bot's answer",
                    () -> rig.api.sentTo(Tg.GROUP).isEmpty() ? null : rig.api.sentTo(Tg.GROUP).get(0).messageId());
            int reply = rig.api.nextMessageId();
            rig.api.push("message", Tg.replyTo(Tg.message(reply, Tg.groupChat(Tg.GROUP, "Team", false), Tg.BOB,
                    "and a queue?"), botMessage, Tg.BOT, "echo: what is a lane?"));
            Await.until("two answers", () -> rig.api.sentTo(Tg.GROUP).size() == 2);
            rig.api.group(Tg.BOB, "what about this, @lanewaybot");

            Await.until("three answers", () -> rig.api.sentTo(Tg.GROUP).size() == 3);
            rig.awaitQuiet();     // every message taken or skipped, and no run left
            assertEquals(List.of("what is a lane?", "and a queue?", "what about this, @lanewaybot"), echo.prompts(),
                    "the leading mention is removed; other messages never reached the gateway");
            assertEquals(mentioned, rig.api.sentTo(Tg.GROUP).get(0).replyTo());
            assertEquals(reply, rig.api.sentTo(Tg.GROUP).get(1).replyTo());
            Await.until("three dispositions", () -> rig.dispositions.size() >= 3);
            assertEquals(3, rig.dispositions.size());
            assertTrue(rig.dispositions.entries().stream().allMatch(e -> e.message().mentionsBot()));
            assertTrue(rig.dispositions.entries().stream().noneMatch(e -> e.message().direct()));
        }
    }

    @Test
    void withoutRequireMention_everyGroupMessageIsTaken_butNotOtherBotsCommands() throws Exception {
        EchoAgent echo = new EchoAgent();
        try (Rig rig = Rig.with().agent(echo).settings(s -> s.withGroupsRequireMention(false)).start()) {
            rig.api.group(Tg.ANN, "/stop@OtherBot");
            rig.api.group(Tg.ANN, "good morning");
            Await.until("the answer", () -> rig.api.sentTo(Tg.GROUP).size() == 1);
            rig.awaitQuiet();     // /stop@OtherBot was skipped, not merely late
            assertEquals(List.of("good morning"), echo.prompts());
            // the disposition is recorded by the gateway's thread, which may come after the send
            Await.until("the disposition", () -> !rig.dispositions.entries().isEmpty());
            assertFalse(rig.dispositions.entries().get(0).message().mentionsBot());
        }
    }

    @Test
    void forumTopic_isTheThread_andTheReplyGoesToTheTopic() throws Exception {
        EchoAgent echo = new EchoAgent();
        try (Rig rig = Rig.with().agent(echo).start()) {
            int id = rig.api.nextMessageId();
            rig.api.push("message", Tg.inTopic(Tg.message(id, Tg.groupChat(Tg.FORUM, "Forum", true), Tg.ANN,
                    "@LanewayBot hi from the topic"), 42));
            Await.until("the answer", () -> rig.api.sentTo(Tg.FORUM).size() == 1);
            FakeBotApi.Sent answer = rig.api.sentTo(Tg.FORUM).get(0);
            assertEquals(42, answer.threadId());
            assertEquals(id, answer.replyTo());
            // the disposition is recorded by the gateway's thread, which may come after the send
            Await.until("the disposition", () -> !rig.dispositions.entries().isEmpty());
            InboundMessage message = rig.dispositions.entries().get(0).message();
            assertEquals("42", message.threadId());
            assertEquals(List.of("hi from the topic"), echo.prompts());
        }
    }

    @Test
    void ordinaryReplyChains_areNotThreads() throws Exception {
        EchoAgent echo = new EchoAgent();
        try (Rig rig = Rig.with().agent(echo).start()) {
            int id = rig.api.nextMessageId();
            var message = Tg.replyTo(Tg.message(id, Tg.groupChat(Tg.GROUP, "Team", false), Tg.ANN,
                    "@LanewayBot and this?"), 55, Tg.BOB, "an earlier message");
            message.put("message_thread_id", 55);   // supergroups set it on replies, without is_topic_message
            rig.api.push("message", message);
            Await.until("the answer", () -> rig.api.sentTo(Tg.GROUP).size() == 1);
            // the disposition is recorded by the gateway's thread, which may come after the send
            Await.until("the disposition", () -> !rig.dispositions.entries().isEmpty());
            assertEquals(null, rig.dispositions.entries().get(0).message().threadId());
            assertEquals(null, rig.api.sentTo(Tg.GROUP).get(0).threadId());
        }
    }

    @Test
    void queueCommandWithBotSuffix_setsTheModeForAnAdmin_andIsRefusedForAMember() throws Exception {
        try (Rig rig = Rig.start()) {
            rig.api.setAdmins(Tg.GROUP, Tg.ANN);
            rig.api.group(Tg.BOB, "/queue@LanewayBot collect");
            Await.until("the refusal", () -> rig.api.sentTo(Tg.GROUP).size() == 1);
            assertEquals("⛔ You are not allowed to change queue settings here.", rig.api.textsTo(Tg.GROUP).get(0));

            rig.api.group(Tg.ANN, "/queue@LanewayBot followup");
            Await.until("the confirmation", () -> rig.api.sentTo(Tg.GROUP).size() == 2);
            assertEquals("⚙️ Queue mode set to followup.", rig.api.textsTo(Tg.GROUP).get(1));
            // the disposition is recorded by the gateway's thread, which may come after the send
            Await.until("both dispositions", () -> rig.dispositions.entries().size() >= 2);
            assertTrue(rig.dispositions.entries().get(1).message().senderIsAdmin());
            assertFalse(rig.dispositions.entries().get(0).message().senderIsAdmin());
            assertEquals("/queue followup", rig.dispositions.entries().get(1).message().text(),
                    "the @LanewayBot suffix is stripped before the gateway sees the command");

            // followup mode is now in force: a burst during a run gives one answer per message
            rig.api.group(Tg.ANN, "@LanewayBot one");
            var first = rig.run(0);
            rig.api.group(Tg.ANN, "@LanewayBot two");
            rig.api.group(Tg.ANN, "@LanewayBot three");
            Await.until("two queued", () -> rig.gateway.pendingMessages() == 3);
            first.complete("answer one");
            rig.run(1).complete("answer two");
            rig.run(2).complete("answer three");
            Await.until("three answers", () -> rig.api.sentTo(Tg.GROUP).size() == 5);
            assertEquals(List.of("one", "two", "three"), rig.scripted().prompts());
            assertEquals(1, rig.api.calls("getChatAdministrators").size(), "the admin list is cached");
        }
    }

    @Test
    void commandsAddressedToAnotherBot_neverReachTheGateway() throws Exception {
        try (Rig rig = Rig.start()) {
            rig.api.setAdmins(Tg.GROUP, Tg.ANN);
            rig.api.group(Tg.ANN, "@LanewayBot long task");
            var run = rig.run(0);
            rig.api.group(Tg.ANN, "/stop@OtherBot");
            rig.api.group(Tg.ANN, "/status@LanewayBot");
            Await.until("the status", () -> rig.api.sentTo(Tg.GROUP).size() == 1);
            String status = rig.api.textsTo(Tg.GROUP).get(0);
            assertTrue(status.startsWith("Status: ") && status.contains("active run"), status);
            assertFalse(run.abortRequested(), "/stop@OtherBot did not stop this bot's run");
            run.complete("done");
            Await.until("the answer", () -> rig.api.sentTo(Tg.GROUP).size() == 2);
            // the reply is sent before the run's end is recorded (another thread): wait for it
            Await.until("the run's disposition", () -> rig.dispositions.size() >= 2);
            assertEquals(2, rig.dispositions.size(), "the run and /status; /stop@OtherBot never arrived");
        }
    }

    @Test
    void anAdminLookupAnswered429_isNotRepeatedBeforeItsRetryAfter_andCommandsThereAreRefusedUntilThen()
            throws Exception {
        try (Rig rig = Rig.start()) {
            rig.api.setAdmins(Tg.GROUP, Tg.ANN);
            rig.api.rateLimitAdminLookups(1, 30);
            rig.api.group(Tg.ANN, "/queue@LanewayBot followup");
            Await.until("the first refusal", () -> rig.api.sentTo(Tg.GROUP).size() == 1);
            rig.api.group(Tg.ANN, "/stop@LanewayBot");
            rig.api.group(Tg.ANN, "/queue@LanewayBot collect");
            Await.until("two more refusals", () -> rig.api.sentTo(Tg.GROUP).size() == 3);
            assertEquals(1, rig.api.calls("getChatAdministrators").size(),
                    "no lookup during the flood wait: asking again would prolong it");
            assertEquals(List.of(false, false, false), rig.dispositions.entries().stream()
                    .map(e -> e.message().senderIsAdmin()).toList());
            assertEquals("⛔ You are not allowed to change queue settings here.", rig.api.textsTo(Tg.GROUP).get(0));
            assertTrue(rig.rateLimits.contains("telegram"), "the 429 is counted for operators");

            rig.time.advance(java.time.Duration.ofSeconds(30));
            rig.api.group(Tg.ANN, "/queue@LanewayBot followup");
            Await.until("the confirmation", () -> rig.api.sentTo(Tg.GROUP).size() == 4);
            assertEquals("⚙️ Queue mode set to followup.", rig.api.textsTo(Tg.GROUP).get(3));
            assertEquals(2, rig.api.calls("getChatAdministrators").size(), "asked again once the wait was over");
        }
    }
}
