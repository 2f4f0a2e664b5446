package dev.laneway.channels.discord;

import static dev.laneway.channels.discord.DiscordJson.ALICE;
import static dev.laneway.channels.discord.DiscordJson.BOB_ADMIN;
import static dev.laneway.channels.discord.DiscordJson.BOT_ID;
import static dev.laneway.channels.discord.DiscordJson.GUILD_ID;
import static dev.laneway.channels.discord.DiscordJson.OTHER_BOT;
import static dev.laneway.channels.discord.DiscordJson.TEXT_CHANNEL;
import static dev.laneway.channels.discord.DiscordJson.THREAD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.testing.Await;
import java.util.List;
import net.dv8tion.jda.api.utils.data.DataObject;
import org.junit.jupiter.api.Test;

/**
 * Guild channels and threads: mention gating, bots ignored, admins recognised, threads as their own
 * session. JDA delivers one connection's events in order, so a later message that is taken is a
 * barrier proving the earlier ones were seen and dropped.
 */
class DiscordGuildTest {

    private static final String MENTION = "<@" + BOT_ID + "> ";

    @Test
    void requireMention_takesOnlyMessagesThatMentionOrReplyToTheBot() throws Exception {
        try (DiscordRig rig = DiscordRig.start()) {
            rig.guildMessage("7101", TEXT_CHANNEL, ALICE, "just chatting");
            rig.guildMessage("7102", TEXT_CHANNEL, ALICE, MENTION + "what's up?", BOT_ID);
            DataObject botsEarlierAnswer = DiscordJson.message("6000", TEXT_CHANNEL, GUILD_ID, BOT_ID, "earlier answer",
                    List.of(), null);
            rig.guildReply("7103", ALICE, "and then?", botsEarlierAnswer);
            rig.guildMessage("7104", TEXT_CHANNEL, ALICE, "barrier " + MENTION, BOT_ID);

            rig.inbound("7104");
            assertEquals(List.of("7102", "7103", "7104"),
                    rig.inbound().stream().map(InboundMessage::platformMessageId).toList());
            InboundMessage mentioned = rig.inbound("7102");
            assertEquals("what's up?", mentioned.text(), "the bot's own mention is stripped");
            assertTrue(mentioned.mentionsBot());
            assertFalse(mentioned.direct());
            assertEquals(TEXT_CHANNEL, mentioned.chatId());
            assertNull(mentioned.threadId());
            assertTrue(rig.inbound("7103").mentionsBot(), "a reply to the bot counts as a mention");
            assertEquals("barrier", rig.inbound("7104").text());
        }
    }

    @Test
    void mentioningTheBotsOwnRole_countsAsMentioningTheBot_andOtherRolesDoNot() throws Exception {
        try (DiscordRig rig = DiscordRig.start()) {
            rig.guildMessageMentioningRoles("7151", ALICE, "<@&" + DiscordJson.ADMIN_ROLE + "> not for the bot",
                    DiscordJson.ADMIN_ROLE);
            rig.guildMessageMentioningRoles("7152", ALICE, "<@&" + DiscordJson.BOT_ROLE + "> what's up?",
                    DiscordJson.BOT_ROLE);

            InboundMessage in = rig.inbound("7152");
            assertTrue(in.mentionsBot());
            assertEquals("what's up?", in.text(), "the bot's role mention is stripped like its user mention");
            assertEquals(List.of("7152"), rig.inbound().stream().map(InboundMessage::platformMessageId).toList(),
                    "a mention of some other role is not for the bot");
        }
    }

    @Test
    void withoutRequireMention_everyGuildMessageIsTaken() throws Exception {
        try (DiscordRig rig = DiscordRig.options().requireMention(false).start()) {
            rig.guildMessage("7111", TEXT_CHANNEL, ALICE, "just chatting");

            InboundMessage in = rig.inbound("7111");
            assertEquals("just chatting", in.text());
            assertFalse(in.mentionsBot());
        }
    }

    @Test
    void messagesFromBots_includingItsOwn_areIgnored() throws Exception {
        try (DiscordRig rig = DiscordRig.options().requireMention(false).start()) {
            rig.guildMessage("7121", TEXT_CHANNEL, OTHER_BOT, MENTION + "beep", BOT_ID);
            rig.guildMessage("7122", TEXT_CHANNEL, BOT_ID, "my own answer");
            rig.guildMessage("7123", TEXT_CHANNEL, ALICE, "barrier");

            rig.inbound("7123");
            assertEquals(List.of("7123"), rig.inbound().stream().map(InboundMessage::platformMessageId).toList());
        }
    }

    @Test
    void serverAdmins_countAsGroupAdmins() throws Exception {
        try (DiscordRig rig = DiscordRig.start()) {
            rig.guildMessage("7131", TEXT_CHANNEL, BOB_ADMIN, MENTION + "hi", BOT_ID);
            rig.guildMessage("7132", TEXT_CHANNEL, ALICE, MENTION + "hi", BOT_ID);

            assertTrue(rig.inbound("7131").senderIsAdmin(), "Bob's role has Manage Server");
            assertFalse(rig.inbound("7132").senderIsAdmin());
        }
    }

    @Test
    void threadMessage_isItsOwnSession_andTheAnswerGoesToTheThread() throws Exception {
        try (DiscordRig rig = DiscordRig.start()) {
            rig.guildMessage("7141", THREAD, ALICE, MENTION + "in the thread", BOT_ID);

            InboundMessage in = rig.inbound("7141");
            assertEquals(TEXT_CHANNEL, in.chatId(), "a thread's chat is its parent channel");
            assertEquals(THREAD, in.threadId());
            Await.until("the agent run", () -> rig.agent.runs().size() == 1);
            assertEquals("discord:group:" + TEXT_CHANNEL + ":" + THREAD, rig.agent.run(0).request().session().value());
            rig.agent.run(0).complete("thread answer");

            Await.until("the reply in the thread", () -> rig.rest.messagesTo(THREAD).size() == 1);
            assertEquals("thread answer", rig.rest.messagesTo(THREAD).get(0).content());
            assertTrue(rig.rest.messagesTo(TEXT_CHANNEL).isEmpty());
        }
    }
}
