package dev.laneway.channels.slack;

import static dev.laneway.channels.slack.SlackEvents.callback;
import static dev.laneway.channels.slack.SlackEvents.channelMessage;
import static dev.laneway.channels.slack.SlackEvents.dm;
import static dev.laneway.channels.slack.SlackEvents.mention;
import static dev.laneway.channels.slack.SlackEvents.message;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import dev.laneway.core.Attachment;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EventConverterTest {

    private static final BotIdentity BOT = new BotIdentity("UBOT", "BBOT", "T1");

    private final EventConverter gated = new EventConverter(BOT, true, Set.of("C1:1.000050")::contains);
    private final EventConverter open = new EventConverter(BOT, false, key -> false);

    private static InboundDraft accepted(Conversion conversion) {
        return assertInstanceOf(Conversion.Accepted.class, conversion).draft();
    }

    private static String ignored(Conversion conversion) {
        return assertInstanceOf(Conversion.Ignored.class, conversion).reason();
    }

    @Test
    void dm_isDirect_atTheTopLevel_orInItsThread() {
        InboundDraft top = accepted(gated.convert(callback(dm("U1", "D1", "hi", "1.000001"), "Ev1")));
        assertTrue(top.direct());
        assertNull(top.threadId());
        assertEquals("1.000001", top.messageId());

        JsonObject threaded = dm("U1", "D1", "more", "1.000002");
        threaded.addProperty("thread_ts", "1.000001");
        assertEquals("1.000001", accepted(gated.convert(callback(threaded, "Ev2"))).threadId());
    }

    @Test
    void topLevelMention_startsAThreadUnderItself_andLosesTheMentionToken() {
        InboundDraft draft = accepted(gated.convert(callback(
                mention("U1", "C1", "<@UBOT> /queue collect", "1.000003", null), "Ev3")));
        assertEquals("1.000003", draft.threadId());
        assertEquals("/queue collect", draft.text());
        assertTrue(draft.mentionsBot());
        assertFalse(draft.direct());
    }

    @Test
    void threadReply_belongsToTheThread() {
        InboundDraft draft = accepted(gated.convert(callback(
                channelMessage("U1", "C1", "hey <@UBOT|laneway> again", "1.000007", "1.000004"), "Ev4")));
        assertEquals("1.000004", draft.threadId());
        assertEquals("hey again", draft.text());
    }

    @Test
    void withRequireMention_onlyMentionsAndEngagedThreadsPass() {
        assertEquals("channel message without a mention", ignored(gated.convert(callback(
                channelMessage("U1", "C1", "chatter", "1.000010", null), "Ev5"))));
        assertEquals("channel message without a mention", ignored(gated.convert(callback(
                channelMessage("U1", "C1", "other thread", "1.000011", "1.000009"), "Ev6"))));
        InboundDraft engaged = accepted(gated.convert(callback(
                channelMessage("U1", "C1", "follow-up", "1.000060", "1.000050"), "Ev7")));
        assertTrue(engaged.mentionsBot(), "a reply in the bot's thread counts as replying to the bot");
    }

    @Test
    void withoutRequireMention_channelMessagesPassUnmentioned() {
        InboundDraft draft = accepted(open.convert(callback(
                message("U1", "G1", "group", "chatter", "1.000012", null), "Ev8")));
        assertFalse(draft.mentionsBot());
        assertFalse(draft.direct());
        assertEquals("1.000012", draft.threadId());
    }

    @Test
    void botsOwnMessages_botMessages_andBookkeepingSubtypes_areIgnored() {
        assertEquals("the bot's own message", ignored(open.convert(callback(
                channelMessage("UBOT", "C1", "mine", "1.000013", null), "Ev9"))));
        JsonObject viaBotId = channelMessage("U5", "C1", "mine too", "1.000014", null);
        viaBotId.addProperty("bot_id", "BBOT");
        assertEquals("the bot's own message", ignored(open.convert(callback(viaBotId, "Ev10"))));
        for (String subtype : List.of("bot_message", "message_changed", "message_deleted", "channel_join")) {
            JsonObject event = channelMessage("U1", "C1", "x", "1.000015", null);
            event.addProperty("subtype", subtype);
            assertEquals("message subtype " + subtype, ignored(open.convert(callback(event, "Ev11"))));
        }
        JsonObject other = new JsonObject();
        other.addProperty("type", "reaction_added");
        assertEquals("event type reaction_added", ignored(open.convert(callback(other, "Ev12"))));
    }

    @Test
    void messagesFromOtherAppsAndBots_areIgnored_soBotsNeverAnswerEachOther() {
        JsonObject otherApp = channelMessage("U7", "C1", "<@UBOT> hello from another app", "1.000019", null);
        otherApp.addProperty("bot_id", "B7");
        assertEquals("a message posted by an app or bot", ignored(open.convert(callback(otherApp, "Ev16"))));
        JsonObject mentionByApp = mention("U7", "C1", "<@UBOT> ping", "1.000020", null);
        mentionByApp.addProperty("bot_id", "B7");
        assertEquals("a message posted by an app or bot", ignored(gated.convert(callback(mentionByApp, "Ev17"))));
        JsonObject withProfile = dm("U7", "D1", "hi", "1.000021");
        withProfile.add("bot_profile", new JsonObject());
        assertEquals("a message posted by an app or bot", ignored(open.convert(callback(withProfile, "Ev18"))));
    }

    @Test
    void aThreadUnderTheBotsOwnMessage_isEngaged_withoutAnyMemory() {
        JsonObject reply = channelMessage("U1", "C1", "about your post", "1.000031", "1.000030");
        reply.addProperty("parent_user_id", "UBOT");
        InboundDraft draft = accepted(gated.convert(callback(reply, "Ev19")));
        assertTrue(draft.mentionsBot());
        assertEquals("1.000030", draft.threadId());

        JsonObject other = channelMessage("U1", "C1", "about their post", "1.000033", "1.000032");
        other.addProperty("parent_user_id", "U2");
        assertEquals("channel message without a mention", ignored(gated.convert(callback(other, "Ev20"))));
    }

    @Test
    void entitiesAreDecoded_andFilesBecomeAttachments() {
        JsonObject event = dm("U1", "D1", "a &lt; b &amp;&amp; c &gt; d", "1.000016");
        event.addProperty("subtype", "file_share");
        JsonArray files = new JsonArray();
        JsonObject file = new JsonObject();
        file.addProperty("name", "plot.png");
        file.addProperty("mimetype", "image/png");
        files.add(file);
        event.add("files", files);

        InboundDraft draft = accepted(open.convert(callback(event, "Ev13")));
        assertEquals("a < b && c > d", draft.text());
        assertEquals(List.of(new Attachment("image", "plot.png", "image/png", -1, null)), draft.attachments(),
                "a file Slack lists without a URL cannot be fetched");
    }

    @Test
    void emptyMessages_andMessagesWithoutASender_areIgnored() {
        assertEquals("empty message", ignored(open.convert(callback(dm("U1", "D1", "<@UBOT>", "1.000017"), "Ev14"))));
        JsonObject anonymous = dm("U1", "D1", "hi", "1.000018");
        anonymous.remove("user");
        assertEquals("message without user, channel or ts", ignored(open.convert(callback(anonymous, "Ev15"))));
    }
}
