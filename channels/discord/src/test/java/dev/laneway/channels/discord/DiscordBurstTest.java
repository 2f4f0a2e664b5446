package dev.laneway.channels.discord;

import static dev.laneway.channels.discord.DiscordJson.ALICE;
import static dev.laneway.channels.discord.DiscordJson.CAROL;
import static dev.laneway.channels.discord.DiscordJson.BOT_ID;
import static dev.laneway.channels.discord.DiscordJson.TEXT_CHANNEL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.testing.Await;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A burst in a guild channel while a run is active: JDA's thread hands each message over without
 * waiting for the run, the gateway collects them, and one collected reply follows. (The senders
 * are all non-admins: a change of sender authority would start a new batch: docs/behaviour.md §5.2.)
 */
class DiscordBurstTest {

    private static final String MENTION = "<@" + BOT_ID + "> ";

    @Test
    void burstDuringARun_getsOneCollectedReply_toTheLastMessage() throws Exception {
        QueueSettings collectNow = new QueueSettings(QueueMode.COLLECT, Duration.ZERO, 20, DropPolicy.SUMMARIZE);
        try (DiscordRig rig = DiscordRig.options().settings(s -> s.queueDefaults(collectNow)).start()) {
            rig.guildMessage("7201", TEXT_CHANNEL, ALICE, MENTION + "first question", BOT_ID);
            Await.until("the first run", () -> rig.agent.runs().size() == 1);

            rig.guildMessage("7202", TEXT_CHANNEL, ALICE, MENTION + "also this", BOT_ID);
            rig.guildMessage("7203", TEXT_CHANNEL, CAROL, MENTION + "and that", BOT_ID);
            rig.guildMessage("7204", TEXT_CHANNEL, ALICE, MENTION + "one more", BOT_ID);
            Await.until("three queued messages", () -> rig.gateway.queueDepths().values().stream()
                    .mapToInt(Integer::intValue).sum() == 3);
            assertEquals(1, rig.agent.runs().size(), "the burst waits for the active run");

            rig.agent.run(0).complete("first answer");
            Await.until("the collected run", () -> rig.agent.runs().size() == 2);
            String prompt = rig.agent.run(1).prompt();
            assertTrue(prompt.startsWith("[Queued messages while agent was busy]"), prompt);
            assertTrue(prompt.contains("Queued #1 (from alice)\nalso this"), prompt);
            assertTrue(prompt.contains("Queued #2 (from carol)\nand that"), prompt);
            assertTrue(prompt.contains("Queued #3 (from alice)\none more"), prompt);
            rig.agent.run(1).complete("collected answer");

            Await.until("two replies", () -> rig.rest.messagesTo(TEXT_CHANNEL).size() == 2);
            assertTrue(rig.gateway.awaitIdle(Await.DEFAULT));
            assertEquals(2, rig.agent.runs().size(), "one run for the first message, one for the whole burst");
            var replies = rig.rest.messagesTo(TEXT_CHANNEL);
            assertEquals("first answer", replies.get(0).content());
            assertEquals("collected answer", replies.get(1).content());
            assertEquals("7204", replies.get(1).json().getObject("message_reference").getString("message_id"));
        }
    }
}
