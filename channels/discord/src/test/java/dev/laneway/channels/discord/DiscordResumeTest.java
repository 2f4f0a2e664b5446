package dev.laneway.channels.discord;

import static dev.laneway.channels.discord.DiscordJson.ALICE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.testing.Await;
import java.util.List;
import net.dv8tion.jda.api.utils.data.DataObject;
import org.junit.jupiter.api.Test;

/**
 * Discord asks the bot to reconnect (op 7); JDA resumes on READY's {@code resume_gateway_url}, and
 * the server replays an event the bot already handled. The replay reaches the gateway with the same
 * message id and is dropped as a duplicate: nothing is answered twice.
 */
class DiscordResumeTest {

    @Test
    void reconnectAndResume_aReplayedMessageIsProcessedOnce() throws Exception {
        try (DiscordRig rig = DiscordRig.start()) {
            String dmChannel = FakeDiscordRest.dmChannel(ALICE);
            DataObject first = DiscordJson.message("7601", dmChannel, null, ALICE, "before the reconnect", List.of(), null);
            rig.ws.dispatch("MESSAGE_CREATE", first);
            Await.until("the first run", () -> rig.agent.runs().size() == 1);
            rig.agent.run(0).complete("first answer");
            Await.until("the first answer", () -> rig.rest.messagesTo(dmChannel).size() == 1);

            rig.ws.reconnect(List.of(DataObject.empty().put("t", "MESSAGE_CREATE").put("d", first)));
            Await.until("a RESUME", () -> rig.ws.received(6).size() == 1);
            Await.until("the replay to be dropped as a duplicate",
                    () -> rig.dispositions.count(Disposition.DUPLICATE) == 1);
            Await.until("JDA to be connected again", rig.channel::connected);
            rig.dm("7602", ALICE, "after the reconnect");
            Await.until("the second run", () -> rig.agent.runs().size() == 2);
            rig.agent.run(1).complete("second answer");
            Await.until("the second answer", () -> rig.rest.messagesTo(dmChannel).size() == 2);

            DataObject resume = rig.ws.received(6).get(0).getObject("d");
            assertEquals("session-1", resume.getString("session_id"));
            assertTrue(resume.getInt("seq") > 0);
            assertEquals(1, rig.ws.received(2).size(), "resumed, not identified again");
            assertTrue(rig.ws.paths().get(1).startsWith("/resume"), "used READY's resume_gateway_url: " + rig.ws.paths());
            assertEquals(List.of("before the reconnect", "after the reconnect"), rig.agent.prompts());
            assertEquals(2, rig.inbound().stream().filter(m -> m.platformMessageId().equals("7601")).count(),
                    "the channel passed the replay on, with the same id");
            assertEquals(List.of("first answer", "second answer"),
                    rig.rest.messagesTo(dmChannel).stream().map(FakeDiscordRest.Request::content).toList());
        }
    }
}
