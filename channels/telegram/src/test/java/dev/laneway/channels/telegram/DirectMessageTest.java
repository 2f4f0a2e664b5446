package dev.laneway.channels.telegram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.engine.AccessPolicy;
import dev.laneway.core.testing.Await;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Private chats through the real SDK, a fake Bot API server and a real gateway. */
class DirectMessageTest {

    @Test
    void dmRoundTrip_replyAnswersTheMessage() throws Exception {
        try (Rig rig = Rig.with().agent(new EchoAgent()).start()) {
            int asked = rig.api.dm(Tg.ANN, "hello there");

            Await.until("the reply", () -> rig.api.sentTo(Tg.ANN.id()).size() == 1);
            FakeBotApi.Sent reply = rig.api.sentTo(Tg.ANN.id()).get(0);
            assertEquals("echo: hello there", reply.text());
            assertEquals(asked, reply.replyTo());
            assertNull(reply.parseMode(), "plain text goes without a parse mode");
            assertNull(reply.threadId());
            assertEquals(Disposition.RAN, Await.value("disposition",
                    () -> rig.dispositions.size() == 1 ? rig.dispositions.entries().get(0).disposition() : null));
        }
    }

    @Test
    void start_identifiesTheBotAndPublishesTheCommandMenu() throws Exception {
        try (Rig rig = Rig.start()) {
            assertEquals(1, rig.api.calls("getMe").size());
            assertEquals(1, rig.api.calls("deleteWebhook").size(), "long polling needs the webhook removed");
            List<FakeBotApi.Call> menu = rig.api.calls("setMyCommands");
            assertEquals(1, menu.size());
            List<String> commands = menu.get(0).body().findValuesAsText("command");
            assertEquals(List.of("queue", "status", "stop", "new"), commands);
        }
    }

    @Test
    void messageFields_areConvertedForTheGateway() throws Exception {
        try (Rig rig = Rig.start()) {
            int id = rig.api.dm(Tg.ANN, "hi");
            rig.run(0).complete("ok");
            Await.until("disposition", () -> rig.dispositions.size() == 1);
            InboundMessage message = rig.dispositions.entries().get(0).message();
            assertEquals("telegram", message.channel());
            assertEquals("default", message.account());
            assertEquals(Long.toString(Tg.ANN.id()), message.chatId());
            assertEquals(Long.toString(Tg.ANN.id()), message.senderId());
            assertEquals("Ann", message.senderName());
            assertEquals(Integer.toString(id), message.platformMessageId());
            assertTrue(message.direct());
            assertFalse(message.senderIsAdmin());
            assertNull(message.threadId());
        }
    }

    @Test
    void burstDuringARun_givesOneCollectedReply() throws Exception {
        try (Rig rig = Rig.start()) {
            rig.api.dm(Tg.ANN, "first");
            var first = rig.run(0);
            assertEquals("first", first.prompt());

            rig.api.dm(Tg.ANN, "second");
            rig.api.dm(Tg.ANN, "third");
            int last = rig.api.dm(Tg.ANN, "fourth");
            Await.until("three queued messages", () -> rig.gateway.pendingMessages() == 4);
            first.complete("answer 1");

            var collected = rig.run(1);
            assertTrue(collected.prompt().contains("second") && collected.prompt().contains("third")
                    && collected.prompt().contains("fourth"), collected.prompt());
            collected.complete("answer 2");

            Await.until("two replies", () -> rig.api.sentTo(Tg.ANN.id()).size() == 2);
            rig.awaitQuiet();     // every message taken and the session idle: no third run can start
            assertEquals(2, rig.scripted().runs().size(), "the burst ran as one turn");
            List<FakeBotApi.Sent> replies = rig.api.sentTo(Tg.ANN.id());
            assertEquals(List.of("answer 1", "answer 2"), replies.stream().map(FakeBotApi.Sent::text).toList());
            assertEquals(last, replies.get(1).replyTo(), "the collected reply answers the last queued message");
            assertEquals(3, rig.dispositions.count(Disposition.COLLECTED));
        }
    }

    @Test
    void editedMessages_areNotMessagesForTheBot() throws Exception {
        try (Rig rig = Rig.with().agent(new EchoAgent()).start()) {
            int id = rig.api.dm(Tg.ANN, "draft");
            Await.until("the first reply", () -> rig.api.sentTo(Tg.ANN.id()).size() == 1);
            var edited = Tg.message(id, Tg.privateChat(Tg.ANN), Tg.ANN, "draft, edited");
            edited.put("edit_date", java.time.Instant.now().getEpochSecond());
            rig.api.push("edited_message", edited);
            rig.api.dm(Tg.ANN, "next");

            Await.until("the second reply", () -> rig.api.sentTo(Tg.ANN.id()).size() == 2);
            assertEquals(List.of("echo: draft", "echo: next"), rig.api.textsTo(Tg.ANN.id()));
            Await.until("both dispositions", () -> rig.dispositions.size() >= 2);
            assertEquals(2, rig.dispositions.size());
        }
    }

    @Test
    void mediaUseTheirCaption_filesWithoutOneAreMessages_andOtherPartsGetATextAndFilesNotice() throws Exception {
        try (Rig rig = Rig.with().agent(new EchoAgent()).start()) {
            rig.api.push("message", Tg.photo(rig.api.nextMessageId(), Tg.privateChat(Tg.ANN), Tg.ANN, "what is this?"));
            Await.until("the caption's reply", () -> rig.api.sentTo(Tg.ANN.id()).size() == 1);
            assertEquals("echo: what is this?\n[file: photo.jpg (image/jpeg)]", rig.api.textsTo(Tg.ANN.id()).get(0));
            // the disposition is recorded when the run has ended, which may be just after its reply went out
            Await.until("the caption's disposition", () -> rig.dispositions.size() >= 1);
            assertEquals("photo", rig.dispositions.entries().get(0).message().attachments().get(0).kind());

            rig.api.push("message", Tg.photo(rig.api.nextMessageId(), Tg.privateChat(Tg.ANN), Tg.ANN, null));
            Await.until("the photo's reply", () -> rig.api.sentTo(Tg.ANN.id()).size() == 2);
            assertEquals("echo: [file: photo.jpg (image/jpeg)]", rig.api.textsTo(Tg.ANN.id()).get(1),
                    "a photo without a caption is a real message (docs/behaviour.md §15.1)");
            Await.until("the photo's disposition", () -> rig.dispositions.size() >= 2);

            int sticker = rig.api.nextMessageId();
            rig.api.push("message", Tg.sticker(sticker, Tg.privateChat(Tg.ANN), Tg.ANN));
            Await.until("the notice", () -> rig.api.sentTo(Tg.ANN.id()).size() == 3);
            FakeBotApi.Sent notice = rig.api.sentTo(Tg.ANN.id()).get(2);
            assertEquals(UpdateConverter.TEXT_ONLY, notice.text());
            assertEquals(sticker, notice.replyTo());
            assertEquals(2, rig.dispositions.size(), "the notice is the channel's, not a gateway message");
            Await.until("the outbox to count the three sends", () -> rig.outboxSends.size() == 3);
            assertEquals(List.of("telegram", "telegram", "telegram"), rig.outboxSends,
                    "the notice went through the gateway's outbox, paced and ordered with the chat's replies");
        }
    }

    @Test
    void allowFrom_deniesStrangersWithoutAnAnswer() throws Exception {
        AccessPolicy onlyAnn = AccessPolicy.allowFrom(Map.of("telegram", Set.of(Long.toString(Tg.ANN.id()))));
        try (Rig rig = Rig.with().agent(new EchoAgent()).access(onlyAnn)
                .settings(s -> s.withAllowFrom(Set.of(Long.toString(Tg.ANN.id())))).start()) {
            int denied = rig.api.dm(Tg.BOB, "let me in");
            rig.api.push("message", Tg.sticker(rig.api.nextMessageId(), Tg.privateChat(Tg.BOB), Tg.BOB));
            rig.api.dm(Tg.ANN, "hi");

            Await.until("Ann's reply", () -> rig.api.sentTo(Tg.ANN.id()).size() == 1);
            Await.until("Bob's disposition", () -> rig.dispositions.size() == 2);
            assertEquals(Disposition.DENIED, rig.dispositions.of(Integer.toString(denied)));
            rig.awaitQuiet();     // the handler has judged Bob's sticker too
            assertEquals(List.of(), rig.api.sentTo(Tg.BOB.id()), "no reply and no notice to a stranger");
            assertEquals(1, ((EchoAgent) rig.agent).prompts().size());
        }
    }
}
