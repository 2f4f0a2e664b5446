package dev.laneway.channels.telegram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.laneway.core.Attachment;
import dev.laneway.core.InboundMessage;
import java.util.List;
import java.time.Instant;
import java.time.InstantSource;
import org.junit.jupiter.api.Test;

class UpdateConverterTest {

    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    private static final BotIdentity BOT = new BotIdentity(Tg.BOT.id(), Tg.BOT.username());
    private final UpdateConverter gated = new UpdateConverter(BOT, true, InstantSource.fixed(NOW));
    private final UpdateConverter open = new UpdateConverter(BOT, false, InstantSource.fixed(NOW));
    private int nextId = 1;

    private Inbound dm(String text) {
        return gated.convert(Tg.sdkUpdate(nextId, Tg.message(nextId++, Tg.privateChat(Tg.ANN), Tg.ANN, text)));
    }

    private Inbound group(UpdateConverter converter, ObjectNode message) {
        return converter.convert(Tg.sdkUpdate(nextId++, message));
    }

    private ObjectNode groupMessage(Tg.Person from, String text) {
        return Tg.message(nextId, Tg.groupChat(Tg.GROUP, "Team", false), from, text);
    }

    private static InboundMessage delivered(Inbound inbound) {
        return assertInstanceOf(Inbound.Deliver.class, inbound).message();
    }

    private static String skipped(Inbound inbound) {
        return assertInstanceOf(Inbound.Skip.class, inbound).reason();
    }

    @Test
    void directMessage_becomesAMessageForTheGateway() {
        Inbound inbound = dm("hello");
        InboundMessage message = delivered(inbound);
        assertFalse(((Inbound.Deliver) inbound).checkAdmin(), "no admin lookup in a DM");
        assertEquals("telegram", message.channel());
        assertEquals("101", message.chatId());
        assertEquals("101", message.senderId());
        assertEquals("Ann", message.senderName());
        assertEquals("hello", message.text());
        assertEquals("1", message.platformMessageId());
        assertEquals(NOW, message.receivedAt());
        assertTrue(message.direct());
        assertNull(message.threadId());
    }

    @Test
    void editedMessages_areSkipped() {
        var update = Tg.sdkUpdate(1, "edited_message", Tg.message(1, Tg.privateChat(Tg.ANN), Tg.ANN, "fixed typo"));
        assertEquals("edited message", skipped(gated.convert(update)));
    }

    @Test
    void channelPostsAndOtherUpdates_areSkipped() {
        var post = Tg.message(1, Tg.groupChat(-100L, "News", false).put("type", "channel"), Tg.ANN, "news");
        assertEquals("not a new message", skipped(gated.convert(Tg.sdkUpdate(1, "channel_post", post))));
    }

    @Test
    void messagesFromBots_andFromItself_areSkipped() {
        assertEquals("from a bot", skipped(group(open, groupMessage(Tg.OTHER_BOT, "beep"))));
        assertEquals("own message", skipped(group(open, groupMessage(Tg.BOT, "my own words"))));
    }

    @Test
    void commandForAnotherBot_isSkipped_evenWithoutRequireMention() {
        assertEquals("command for another bot", skipped(group(open, groupMessage(Tg.ANN, "/stop@OtherBot"))));
        assertEquals("command for another bot", skipped(dm("/queue@OtherBot collect")));
    }

    @Test
    void commandForThisBot_losesItsSuffix_caseInsensitively() {
        assertEquals("/queue collect", delivered(group(gated, groupMessage(Tg.ANN, "/queue@LanewayBot collect"))).text());
        assertEquals("/stop", delivered(group(gated, groupMessage(Tg.ANN, "/stop@lanewaybot"))).text());
        assertEquals("/status", delivered(dm("/status")).text());
    }

    @Test
    void requireMention_skipsGroupTextThatIsNotForTheBot() {
        assertEquals("not addressed to the bot", skipped(group(gated, groupMessage(Tg.ANN, "lunch?"))));
        assertEquals("not addressed to the bot", skipped(group(gated, groupMessage(Tg.ANN, "mail me at x@LanewayBot.dev"))));
        assertEquals("not addressed to the bot", skipped(group(gated, groupMessage(Tg.ANN, "@LanewayBotFan hi"))));
    }

    @Test
    void mentionAnywhere_addressesTheBot_andALeadingMentionIsRemoved() {
        InboundMessage leading = delivered(group(gated, groupMessage(Tg.ANN, "@LanewayBot, what time is it?")));
        assertEquals("what time is it?", leading.text());
        assertTrue(leading.mentionsBot());
        assertFalse(leading.direct());
        assertEquals("thanks @LanewayBot", delivered(group(gated, groupMessage(Tg.ANN, "thanks @LanewayBot"))).text());
        assertEquals("@LanewayBot", delivered(group(gated, groupMessage(Tg.ANN, "@LanewayBot"))).text(),
                "a bare mention keeps its text");
    }

    @Test
    void mentionThenCommand_isTheCommand() {
        assertEquals("/queue followup",
                delivered(group(gated, groupMessage(Tg.ANN, "@LanewayBot /queue@LanewayBot followup"))).text());
    }

    @Test
    void mentionWithoutEntities_isFoundInTheText() {
        ObjectNode message = groupMessage(Tg.ANN, "hey @lanewaybot");
        message.remove("entities");
        assertTrue(delivered(group(gated, message)).mentionsBot());
    }

    @Test
    void textMentionOfTheBotUser_addressesIt() {
        ObjectNode message = groupMessage(Tg.ANN, "Laneway please help");
        message.putArray("entities").addObject().put("type", "text_mention").put("offset", 0).put("length", 7)
                .set("user", Tg.BOT.json());
        assertTrue(delivered(group(gated, message)).mentionsBot());
    }

    @Test
    void replyToTheBot_addressesIt() {
        ObjectNode message = Tg.replyTo(groupMessage(Tg.ANN, "and then?"), 50, Tg.BOT, "an answer");
        assertEquals("and then?", delivered(group(gated, message)).text());
        ObjectNode toSomeoneElse = Tg.replyTo(groupMessage(Tg.ANN, "and then?"), 51, Tg.BOB, "a remark");
        assertEquals("not addressed to the bot", skipped(group(gated, toSomeoneElse)));
    }

    @Test
    void onlyGroupCommandsThatNeedAuthority_needAnAdminLookup() {
        for (String command : java.util.List.of("/queue@LanewayBot steer", "/queue", "/stop", "/new", "/reset",
                "/QUEUE collect")) {
            Inbound inbound = group(gated, groupMessage(Tg.ANN, command));
            assertTrue(((Inbound.Deliver) inbound).checkAdmin(), command);
            assertFalse(delivered(inbound).senderIsAdmin());
        }
        for (String other : java.util.List.of("/status", "@LanewayBot how are you?", "/help@LanewayBot")) {
            assertFalse(((Inbound.Deliver) group(gated, groupMessage(Tg.ANN, other))).checkAdmin(),
                    other + " needs no authority, so no lookup");
        }
        ObjectNode reply = Tg.replyTo(groupMessage(Tg.ANN, "and then?"), 52, Tg.BOT, "an answer");
        assertFalse(((Inbound.Deliver) group(gated, reply)).checkAdmin());
    }

    @Test
    void inAGroupWithRequireMention_aBareCommandCountsOnlyIfItIsOneOfOurs() {
        assertEquals("not addressed to the bot", skipped(group(gated, groupMessage(Tg.ANN, "/help"))));
        assertEquals("not addressed to the bot", skipped(group(gated, groupMessage(Tg.ANN, "/start"))));
        assertEquals("not addressed to the bot", skipped(group(gated, groupMessage(Tg.ANN, "/settings dark"))));
        for (String ours : java.util.List.of("/queue", "/status", "/stop", "/new", "/reset", "/Status")) {
            assertTrue(delivered(group(gated, groupMessage(Tg.ANN, ours))).mentionsBot(), ours);
        }
        assertEquals("/help", delivered(group(gated, groupMessage(Tg.ANN, "/help@LanewayBot"))).text(),
                "any command with our suffix is ours");
        assertEquals("/help", delivered(group(gated, groupMessage(Tg.ANN, "@LanewayBot /help"))).text(),
                "so is one that mentions us");
        assertEquals("/help", delivered(dm("/help")).text(), "in a DM everything is for the bot");
        assertEquals("/start", delivered(group(open, groupMessage(Tg.ANN, "/start"))).text(),
                "without requireMention every message is taken");
    }

    @Test
    void anonymousGroupAdmin_isAnAdminWithoutLookup() {
        ObjectNode message = groupMessage(new Tg.Person(UpdateConverter.ANONYMOUS_ADMIN, "Group", "GroupAnonymousBot", true),
                "/queue@LanewayBot collect");
        message.set("sender_chat", Tg.groupChat(Tg.GROUP, "Team", false));
        Inbound inbound = group(gated, message);
        assertFalse(((Inbound.Deliver) inbound).checkAdmin());
        assertTrue(delivered(inbound).senderIsAdmin());
        assertEquals("Team (admin)", delivered(inbound).senderName());
    }

    @Test
    void forumTopic_isTheThread_butAReplyInAPlainGroupIsNot() {
        ObjectNode inTopic = Tg.inTopic(Tg.message(nextId, Tg.groupChat(Tg.FORUM, "Forum", true), Tg.ANN, "@LanewayBot hi"), 7);
        InboundMessage topic = delivered(group(gated, inTopic));
        assertEquals("7", topic.threadId());
        assertTrue(topic.mentionsBot());

        ObjectNode reply = Tg.replyTo(groupMessage(Tg.ANN, "@LanewayBot hi"), 60, Tg.BOB, "x");
        reply.put("message_thread_id", 60);
        assertNull(delivered(group(gated, reply)).threadId());
    }

    @Test
    void topicCreatedByTheBot_doesNotMakeEveryTopicMessageAReplyToIt() {
        ObjectNode message = Tg.inTopic(Tg.message(nextId, Tg.groupChat(Tg.FORUM, "Forum", true), Tg.ANN, "chatter"), 9);
        ((ObjectNode) message.get("reply_to_message")).set("from", Tg.BOT.json());
        assertEquals("not addressed to the bot", skipped(group(gated, message)));
    }

    @Test
    void mediaWithCaption_usesTheCaption_andListsTheAttachment() {
        ObjectNode photo = Tg.photo(nextId, Tg.privateChat(Tg.ANN), Tg.ANN, "what is this?");
        InboundMessage message = delivered(gated.convert(Tg.sdkUpdate(nextId++, photo)));
        assertEquals("what is this?", message.text());
        assertEquals("photo", message.attachments().get(0).kind());
    }

    @Test
    void captionMention_addressesTheBotInAGroup() {
        ObjectNode photo = Tg.photo(nextId, Tg.groupChat(Tg.GROUP, "Team", false), Tg.ANN, "@LanewayBot look");
        assertEquals("look", delivered(group(gated, photo)).text());
    }

    @Test
    void aPhotoWithoutCaption_isARealMessage_withItsLargestSizeAsTheFile() {
        ObjectNode photo = Tg.photo(nextId, Tg.privateChat(Tg.ANN), Tg.ANN, null);
        ((com.fasterxml.jackson.databind.node.ArrayNode) photo.get("photo")).addObject().put("file_id", "p-large")
                .put("file_unique_id", "u2").put("width", 1280).put("height", 960).put("file_size", 123_456);
        InboundMessage message = delivered(gated.convert(Tg.sdkUpdate(nextId++, photo)));
        assertEquals("", message.text());
        assertEquals(List.of(new Attachment("photo", "photo.jpg", "image/jpeg", 123_456, "p-large")),
                message.attachments());
    }

    @Test
    void documentsAndVoiceNotes_carryNameTypeSizeAndFileId() {
        InboundMessage document = delivered(gated.convert(Tg.sdkUpdate(nextId, Tg.document(nextId++,
                Tg.privateChat(Tg.ANN), Tg.ANN, "d1", "notes.md", "text/markdown", 321, "read this"))));
        assertEquals("read this", document.text());
        assertEquals(List.of(new Attachment("document", "notes.md", "text/markdown", 321, "d1")), document.attachments());
        InboundMessage voice = delivered(gated.convert(Tg.sdkUpdate(nextId, Tg.voice(nextId++,
                Tg.privateChat(Tg.ANN), Tg.ANN, "v1", 4_000))));
        assertEquals(List.of(new Attachment("voice", "voice.ogg", "audio/ogg", 4_000, "v1")), voice.attachments());
    }

    @Test
    void aPartThatIsNoFile_withoutText_getsTheTextAndFilesNotice_inADm() {
        ObjectNode photo = Tg.sticker(nextId, Tg.privateChat(Tg.ANN), Tg.ANN);
        Inbound.Notify notify = assertInstanceOf(Inbound.Notify.class, gated.convert(Tg.sdkUpdate(nextId++, photo)));
        assertEquals(UpdateConverter.TEXT_ONLY, notify.text());
        assertEquals("101", notify.route().chatId());
        assertEquals(Integer.toString(nextId - 1), notify.route().replyToMessageId());
    }

    @Test
    void mediaWithoutCaption_inAGroup_isSilentUnlessItRepliesToTheBot() {
        ObjectNode photo = Tg.sticker(nextId, Tg.groupChat(Tg.GROUP, "Team", false), Tg.ANN);
        assertEquals("not addressed to the bot", skipped(group(gated, photo)));
        ObjectNode reply = Tg.replyTo(Tg.sticker(nextId, Tg.groupChat(Tg.GROUP, "Team", false), Tg.ANN), 70, Tg.BOT, "x");
        assertInstanceOf(Inbound.Notify.class, group(gated, reply));
    }

    @Test
    void serviceMessages_areSkippedWithoutANotice() {
        ObjectNode joined = Tg.message(nextId, Tg.privateChat(Tg.ANN), Tg.ANN, null);
        joined.putArray("new_chat_members").add(Tg.BOB.json());
        assertEquals("no text", skipped(gated.convert(Tg.sdkUpdate(nextId++, joined))));
    }

    @Test
    void automaticForwardsFromALinkedChannel_areSkipped() {
        ObjectNode forward = groupMessage(Tg.ANN, "@LanewayBot channel post");
        forward.put("is_automatic_forward", true);
        assertEquals("automatic forward", skipped(group(open, forward)));
    }
}
