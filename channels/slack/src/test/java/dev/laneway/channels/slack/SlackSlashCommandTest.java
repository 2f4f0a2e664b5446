package dev.laneway.channels.slack;

import static dev.laneway.channels.slack.SlackEvents.eventsApi;
import static dev.laneway.channels.slack.SlackEvents.mention;
import static dev.laneway.channels.slack.SlackEvents.newEnvelopeId;
import static dev.laneway.channels.slack.SlackEvents.slashCommand;
import static dev.laneway.channels.slack.SlackEvents.ts;
import static dev.laneway.channels.slack.SlackRig.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.command.CommandDecision;
import dev.laneway.core.command.CommandHandler;
import org.junit.jupiter.api.Test;

/**
 * Slash commands and plain-text commands reach the gateway's command layer as the same text.
 * The command handler here stands in for the commands module: it echoes what it got and whether
 * the sender counts as authorized (DM, or a workspace admin in a channel).
 */
class SlackSlashCommandTest {

    private static final CommandHandler ECHO_COMMANDS = (message, context) -> message.text().startsWith("/")
            ? new CommandDecision.Reply("got " + message.text() + " authorized=" + context.authorized())
            : CommandDecision.NOT_A_COMMAND;

    @Test
    void slashQueue_isAcknowledged_andAnsweredInItsChannel_withWorkspaceAdminsAuthorized() throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, ECHO_COMMANDS)) {
            rig.api.user("UADMIN", "Ada", true);
            rig.api.user("UGUEST", "Gus", false);
            String envelope = newEnvelopeId();
            rig.deliver(slashCommand(envelope, "/queue", "collect cap:5", "UADMIN", "C1"));
            await("the admin's answer", () -> rig.api.posts().size() == 1);
            rig.deliver(slashCommand(newEnvelopeId(), "/queue", "followup", "UGUEST", "C1"));
            await("the guest's answer", () -> rig.api.posts().size() == 2);

            FakeSlackApi.Call admin = rig.api.posts().get(0);
            assertEquals("C1", admin.param("channel"));
            assertNull(admin.param("thread_ts"));
            assertEquals("got /queue collect cap:5 authorized=true", admin.param("text"));
            assertEquals("got /queue followup authorized=false", rig.api.posts().get(1).param("text"));
            assertTrue(rig.socket.acks().contains(envelope));
            assertTrue(rig.agent.runs().isEmpty(), "a command runs no agent");
            assertTrue(rig.received.get(0).platformMessageId().startsWith("slash:"));
        }
    }

    @Test
    void slashCommandInADm_isAuthorizedForAnyone() throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, ECHO_COMMANDS)) {
            rig.deliver(slashCommand(newEnvelopeId(), "/status", "", "UGUEST", "D7"));
            await("the answer", () -> rig.api.posts().size() == 1);
            assertEquals("got /status authorized=true", rig.api.posts().get(0).param("text"));
            assertEquals("D7", rig.api.posts().get(0).param("channel"));
        }
    }

    @Test
    void plainTextCommandInAThread_reachesTheCommandLayerWithoutTheMention_andIsAnsweredInTheThread() throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, ECHO_COMMANDS)) {
            String root = ts();
            rig.deliver(eventsApi(newEnvelopeId(),
                    mention("U1", "C1", "<@" + FakeSlackApi.BOT_USER + "> /stop", ts(), root)));
            await("the answer", () -> rig.api.posts().size() == 1);
            FakeSlackApi.Call post = rig.api.posts().get(0);
            assertEquals("got /stop authorized=false", post.param("text"));
            assertEquals(root, post.param("thread_ts"));
        }
    }
}
