package dev.laneway.channels.slack;

import static dev.laneway.channels.slack.SlackEvents.eventsApi;
import static dev.laneway.channels.slack.SlackEvents.mention;
import static dev.laneway.channels.slack.SlackEvents.newEnvelopeId;
import static dev.laneway.channels.slack.SlackEvents.ts;
import static dev.laneway.core.testing.Await.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.command.CommandDecision;
import dev.laneway.core.command.CommandHandler;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Slash commands and plain-text commands reach the gateway's command layer as the same text, and
 * a slash command's answer goes back through its {@code response_url}, which works wherever the
 * command was used. The command handler here stands in for the commands module: it echoes what it
 * got and whether the sender counts as authorized (DM with the bot, or a workspace admin).
 */
class SlackSlashCommandTest {

    private static final CommandHandler ECHO_COMMANDS = (message, context) -> message.text().startsWith("/")
            ? new CommandDecision.Reply("got " + message.text() + " authorized=" + context.authorized())
            : CommandDecision.NOT_A_COMMAND;

    @Test
    void slashQueue_isAnsweredPrivatelyThroughItsResponseUrl_evenInAChannelTheBotIsNotIn() throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, ECHO_COMMANDS)) {
            rig.api.user("UADMIN", "Ada", true);
            rig.api.user("UGUEST", "Gus", false);
            rig.api.notIn("C1");
            String admin = rig.slash("/queue", "collect cap:5", "UADMIN", "C1");
            until("the admin's answer", () -> rig.api.responses().size() == 1);
            String guest = rig.slash("/queue", "followup", "UGUEST", "C1");
            until("the guest's answer", () -> rig.api.responses().size() == 2);

            FakeSlackApi.Response first = rig.api.responses().get(0);
            assertEquals("/commands/T1/" + admin, first.path(), "the invocation's own response_url");
            assertEquals("got /queue collect cap:5 authorized=true", first.text());
            assertEquals("ephemeral", first.responseType(), "only the user who typed it sees it");
            assertEquals("/commands/T1/" + guest, rig.api.responses().get(1).path());
            assertEquals("got /queue followup authorized=false", rig.api.responses().get(1).text());
            assertEquals(List.of(), rig.api.calls("chat.postMessage"), "nothing posted where the bot cannot post");
            assertTrue(rig.socket.acks().contains(admin));
            assertTrue(rig.agent.runs().isEmpty(), "a command runs no agent");
            assertTrue(rig.received.get(0).platformMessageId().startsWith("slash:"));
        }
    }

    @Test
    void slashStop_isAnsweredVisiblyInTheChannel() throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, ECHO_COMMANDS)) {
            rig.slash("/stop", "", "U1", "C1");
            until("the answer", () -> rig.api.responses().size() == 1);
            assertEquals("in_channel", rig.api.responses().get(0).responseType());
            assertEquals("got /stop authorized=false", rig.api.responses().get(0).text());
        }
    }

    @Test
    void aResponseUrlThatFails_fallsBackToPostingInTheChannel() throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, ECHO_COMMANDS)) {
            rig.api.responseStatus(404);
            rig.slash("/status", "", "U1", "C1");
            until("the fallback post", () -> rig.api.posts().size() == 1);
            assertEquals(1, rig.api.responses().size(), "the response_url was tried first");
            FakeSlackApi.Call post = rig.api.posts().get(0);
            assertEquals("C1", post.param("channel"));
            assertEquals("got /status authorized=false", post.param("text"));
        }
    }

    @Test
    void slashCommandInTheBotsOwnDm_isADmWithTheBot_andAuthorizedForAnyone() throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, ECHO_COMMANDS)) {
            rig.api.botIm("D7", "UGUEST");
            rig.slash("/status", "", "UGUEST", "D7");
            until("the answer", () -> rig.api.responses().size() == 1);
            assertEquals("got /status authorized=true", rig.api.responses().get(0).text());
            assertTrue(rig.received.get(0).direct());
        }
    }

    @Test
    void slashCommandInADmBetweenTwoPeople_isNotADmWithTheBot() throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, ECHO_COMMANDS)) {
            rig.slash("/queue", "interrupt", "UGUEST", "D8");
            until("the answer", () -> rig.api.responses().size() == 1);
            assertEquals("got /queue interrupt authorized=false", rig.api.responses().get(0).text());
            assertFalse(rig.received.get(0).direct(), "a DM the bot is not part of is not a DM with the bot");
            assertEquals(1, rig.api.calls("conversations.info").size());
        }
    }

    @Test
    void aDmTheBotHasHeardFrom_needsNoLookup() throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, ECHO_COMMANDS)) {
            rig.deliver(eventsApi(newEnvelopeId(), SlackEvents.dm("U3", "D9", "/status", ts())));
            until("the typed command's answer", () -> rig.api.posts().size() == 1);
            rig.slash("/new", "", "U3", "D9");
            until("the slash command's answer", () -> rig.api.responses().size() == 1);
            assertEquals("got /new authorized=true", rig.api.responses().get(0).text());
            assertEquals(List.of(), rig.api.calls("conversations.info"));
        }
    }

    @Test
    void plainTextCommandInAThread_reachesTheCommandLayerWithoutTheMention_andIsAnsweredInTheThread() throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, ECHO_COMMANDS)) {
            String root = ts();
            rig.deliver(eventsApi(newEnvelopeId(),
                    mention("U1", "C1", "<@" + FakeSlackApi.BOT_USER + "> /stop", ts(), root)));
            until("the answer", () -> rig.api.posts().size() == 1);
            FakeSlackApi.Call post = rig.api.posts().get(0);
            assertEquals("got /stop authorized=false", post.param("text"));
            assertEquals(root, post.param("thread_ts"));
        }
    }
}
