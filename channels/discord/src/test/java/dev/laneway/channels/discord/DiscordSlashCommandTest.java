package dev.laneway.channels.discord;

import static dev.laneway.channels.discord.DiscordJson.ALICE;
import static dev.laneway.channels.discord.DiscordJson.APP_ID;
import static dev.laneway.channels.discord.DiscordJson.BOB_ADMIN;
import static dev.laneway.channels.discord.DiscordJson.BOT_ID;
import static dev.laneway.channels.discord.DiscordJson.TEXT_CHANNEL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.commands.ChatCommands;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.SessionKey;
import dev.laneway.core.testing.Await;
import java.util.ArrayList;
import java.util.List;
import net.dv8tion.jda.api.utils.data.DataArray;
import net.dv8tion.jda.api.utils.data.DataObject;
import org.junit.jupiter.api.Test;

/** Native slash commands: registered at start, turned into command lines, answered through the interaction. */
class DiscordSlashCommandTest {

    @Test
    void slashCommands_areRegisteredAtStart_withTypedQueueOptions() throws Exception {
        try (DiscordRig rig = DiscordRig.start()) {
            DataArray commands = DataArray.fromJson(
                    rig.rest.requests(r -> r.is("PUT", "applications/" + APP_ID + "/commands")).get(0).body());

            List<String> names = new ArrayList<>();
            DataObject queue = null;
            for (int i = 0; i < commands.length(); i++) {
                names.add(commands.getObject(i).getString("name"));
                if (commands.getObject(i).getString("name").equals("queue")) {
                    queue = commands.getObject(i);
                }
            }
            assertEquals(List.of("queue", "status", "stop", "new"), names);
            DataArray options = queue.getArray("options");
            assertEquals("mode", options.getObject(0).getString("name"));
            assertEquals(3, options.getObject(0).getInt("type"), "mode is a string with choices");
            assertEquals(6, options.getObject(0).getArray("choices").length());
            assertEquals("debounce", options.getObject(1).getString("name"));
            assertEquals("cap", options.getObject(2).getString("name"));
            assertEquals(4, options.getObject(2).getInt("type"), "cap is an integer");
            assertEquals(1, options.getObject(2).getInt("min_value"));
            assertEquals("drop", options.getObject(3).getString("name"));
            assertEquals(3, options.getObject(3).getArray("choices").length());
        }
    }

    @Test
    void queueWithOptions_changesTheSessionsSettings_andIsAnsweredEphemerallyThroughTheInteraction() throws Exception {
        try (DiscordRig rig = DiscordRig.options().commands(new ChatCommands()).start()) {
            String id = DiscordJson.snowflakeNow();
            rig.slashCommand(id, TEXT_CHANNEL, BOB_ADMIN, "queue", DataArray.empty()
                    .add(DiscordJson.option("cap", 4, 10))
                    .add(DiscordJson.option("mode", 3, "followup")));

            InboundMessage in = rig.inbound("interaction:" + id);
            assertEquals("/queue followup cap:10", in.text());
            assertEquals(TEXT_CHANNEL, in.chatId());
            assertTrue(in.senderIsAdmin(), "Bob has Manage Server");

            Await.until("the follow-up", () -> !rig.followUps(id).isEmpty());
            DataObject callback = rig.callbacks(id).get(0).json();
            assertEquals(5, callback.getInt("type"), "deferred at once, answered when the gateway replies");
            assertEquals(64, callback.getObject("data").getInt("flags"), "ephemeral");
            DataObject followUp = rig.followUps(id).get(0).json();
            assertEquals("\u2699\uFE0F Queue mode set to followup. \u2699\uFE0F Queue cap set to 10.",
                    followUp.getString("content"));
            assertEquals(64, followUp.getInt("flags") & 64, "ephemeral");
            assertEquals(0, followUp.getObject("allowed_mentions").getArray("parse").length(), "pings nobody");
            assertTrue(rig.rest.messagesTo(TEXT_CHANNEL).isEmpty(), "nothing posted to the channel itself");

            QueueSettings now = rig.gateway.effectiveSettings(SessionKey.of("discord:group:" + TEXT_CHANNEL), "discord");
            assertEquals(QueueMode.FOLLOWUP, now.mode(), "the mode really changed");
            assertEquals(10, now.cap());
        }
    }

    @Test
    void queueFromANonAdmin_isRefused_andChangesNothing() throws Exception {
        try (DiscordRig rig = DiscordRig.options().commands(new ChatCommands()).start()) {
            String id = DiscordJson.snowflakeNow();
            rig.slashCommand(id, TEXT_CHANNEL, ALICE, "queue", DataArray.empty().add(DiscordJson.option("mode", 3, "interrupt")));

            Await.until("the follow-up", () -> !rig.followUps(id).isEmpty());
            assertEquals("\u26D4 You are not allowed to change queue settings here.",
                    rig.followUps(id).get(0).json().getString("content"));
            assertEquals(QueueMode.COLLECT,
                    rig.gateway.effectiveSettings(SessionKey.of("discord:group:" + TEXT_CHANNEL), "discord").mode());
        }
    }

    @Test
    void stop_isAnsweredVisiblyToTheChannel() throws Exception {
        try (DiscordRig rig = DiscordRig.options().commands(new ChatCommands()).start()) {
            String id = DiscordJson.snowflakeNow();
            rig.slashCommand(id, TEXT_CHANNEL, BOB_ADMIN, "stop", DataArray.empty());

            Await.until("the follow-up", () -> !rig.followUps(id).isEmpty());
            DataObject callback = rig.callbacks(id).get(0).json();
            assertEquals(0, callback.optObject("data").map(d -> d.getInt("flags", 0)).orElse(0) & 64);
            DataObject followUp = rig.followUps(id).get(0).json();
            assertEquals("\u2699\uFE0F Agent was aborted.", followUp.getString("content"));
            assertEquals(0, followUp.getInt("flags", 0) & 64);
        }
    }

    @Test
    void statusInADm_isADirectMessageFromTheUser() throws Exception {
        try (DiscordRig rig = DiscordRig.options().commands(new TestCommands()).start()) {
            String id = DiscordJson.snowflakeNow();
            rig.ws.dispatch("INTERACTION_CREATE", DiscordJson.dmInteraction(id, ALICE, "status"));

            InboundMessage in = rig.inbound("interaction:" + id);
            assertEquals("/status", in.text());
            assertEquals("dm:" + ALICE, in.chatId());
            assertTrue(in.direct());
            Await.until("the follow-up", () -> !rig.rest.requests(r -> r.is("POST", "webhooks/" + APP_ID + "/itoken-" + id)).isEmpty());
            DataObject followUp = rig.rest.requests(r -> r.is("POST", "webhooks/" + APP_ID + "/itoken-" + id)).get(0).json();
            assertEquals("handled /status (authorized=true)", followUp.getString("content"), "anyone may in a DM");
        }
    }

    @Test
    void commandTypedAsText_afterAMention_works() throws Exception {
        try (DiscordRig rig = DiscordRig.options().commands(new TestCommands()).start()) {
            rig.guildMessage("7301", TEXT_CHANNEL, ALICE, "<@" + BOT_ID + "> /status", BOT_ID);

            Await.until("the answer", () -> rig.rest.messagesTo(TEXT_CHANNEL).size() == 1);
            DataObject answer = rig.rest.messagesTo(TEXT_CHANNEL).get(0).json();
            assertEquals("handled /status (authorized=false)", answer.getString("content"));
            assertEquals("7301", answer.getObject("message_reference").getString("message_id"));
        }
    }
}
