package dev.laneway.channels.discord;

import static dev.laneway.channels.discord.DiscordJson.ALICE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.testing.Await;
import net.dv8tion.jda.api.utils.data.DataObject;
import org.junit.jupiter.api.Test;

/** DMs through the real JDA against the fake Discord, end to end through a real gateway. */
class DiscordDirectMessageTest {

    @Test
    void dm_reachesTheAgent_andTheAnswerRepliesToIt() throws Exception {
        try (DiscordRig rig = DiscordRig.start()) {
            rig.dm("7001", ALICE, "hello bot");

            InboundMessage in = rig.inbound("7001");
            assertEquals("discord", in.channel());
            assertEquals("default", in.account());
            assertEquals("dm:" + ALICE, in.chatId());
            assertNull(in.threadId());
            assertTrue(in.direct());
            assertEquals(ALICE, in.senderId());
            assertEquals("alice", in.senderName());
            assertEquals("hello bot", in.text());
            assertEquals("7001", in.platformMessageId(), "the Discord message id, which the gateway dedupes on");

            Await.until("the agent run", () -> rig.agent.runs().size() == 1);
            assertEquals("hello bot", rig.agent.run(0).prompt());
            rig.agent.run(0).complete("hi alice");

            String dmChannel = FakeDiscordRest.dmChannel(ALICE);
            Await.until("the reply", () -> rig.rest.messagesTo(dmChannel).size() == 1);
            DataObject reply = rig.rest.messagesTo(dmChannel).get(0).json();
            assertEquals("hi alice", reply.getString("content"));
            assertEquals("7001", reply.getObject("message_reference").getString("message_id"));
        }
    }

    @Test
    void login_identifiesWithTheChatIntents_overPlainUncompressedJson() throws Exception {
        try (DiscordRig rig = DiscordRig.start()) {
            DataObject identify = rig.ws.received(2).get(0).getObject("d");
            int guilds = 1;                     // JDA always adds GUILDS: its cache is built from it
            int guildMessages = 1 << 9;
            int directMessages = 1 << 12;
            int messageContent = 1 << 15;
            assertEquals(guilds | guildMessages | directMessages | messageContent, identify.getInt("intents"));
            assertEquals(DiscordRig.TOKEN, identify.getString("token"));
            assertEquals("/?encoding=json&v=10", rig.ws.paths().get(0), "no compress= on a plain ws:// gateway");
            assertEquals(1, rig.rest.requests(r -> r.is("GET", "users/@me")).size(), "the token check at login");
        }
    }

    @Test
    void dm_typingIsShownInTheDmWhileTheMessageIsPending_beforeTheAnswer() throws Exception {
        try (DiscordRig rig = DiscordRig.start()) {
            rig.dm("7002", ALICE, "are you there?");

            String dmChannel = FakeDiscordRest.dmChannel(ALICE);
            Await.until("typing in the DM", () -> !rig.rest.typingIn(dmChannel).isEmpty());
            Await.until("the agent run", () -> rig.agent.runs().size() == 1);
            assertFalse(rig.agent.run(0).isDone(), "the run is still open");
            assertTrue(rig.rest.messagesTo(dmChannel).isEmpty(), "typing came while nothing was answered yet");

            rig.agent.run(0).complete("yes");
            Await.until("the answer", () -> rig.rest.messagesTo(dmChannel).size() == 1);
            long typedAt = rig.rest.typingIn(dmChannel).get(0).arrivedNanos();
            assertTrue(typedAt < rig.rest.messagesTo(dmChannel).get(0).arrivedNanos(), "typing before the answer");
        }
    }
}
