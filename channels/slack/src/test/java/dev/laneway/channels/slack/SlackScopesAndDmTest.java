package dev.laneway.channels.slack;

import static dev.laneway.core.testing.Await.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import dev.laneway.core.command.CommandDecision;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.testing.LogCapture;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An app installed before {@code im:read} was in the manifest: the start names each missing scope
 * once, and a slash command in the bot's own DM still reaches the sender's DM session (Slack
 * confirms the bot is in that IM with {@code conversations.history}), never a group session keyed
 * by the {@code D...} channel. When Slack cannot be asked at all, the command is answered
 * privately with a hint instead of running under a guessed session.
 */
class SlackScopesAndDmTest {

    private static final CommandHandler ECHO_COMMANDS = (message, context) -> message.text().startsWith("/")
            ? new CommandDecision.Reply("got " + message.text() + " authorized=" + context.authorized())
            : CommandDecision.NOT_A_COMMAND;

    private LogCapture logs;

    @BeforeEach
    void capture() {
        logs = LogCapture.of("dev.laneway.channels.slack");
    }

    @AfterEach
    void release() {
        logs.close();
    }

    private List<String> logged(Level level) {
        return logs.messages(level);
    }

    @Test
    void atStart_oneErrorNamesEachMissingScope_andWhatItBreaks() throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, ECHO_COMMANDS, api -> api.scopesWithout("im:read", "users:read"))) {
            List<String> errors = logged(Level.ERROR);
            assertEquals(1, errors.size(), errors.toString());
            assertTrue(errors.get(0).contains("lacks the scope(s) im:read (slash commands in the bot's DM"), errors.get(0));
            assertTrue(errors.get(0).contains("; users:read (no display names"), errors.get(0));
            assertTrue(errors.get(0).contains("reinstall the app"), errors.get(0));
            assertFalse(errors.get(0).contains("xoxb-test-bot"), "never the token");
        }
    }

    @Test
    void withEveryScope_nothingIsReported() throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, ECHO_COMMANDS)) {
            assertEquals(List.of(), logged(Level.ERROR));
        }
    }

    @Test
    void withoutImRead_aSlashCommandInTheBotsOwnDm_isTheSendersDm_withoutConversationsInfoOrWarnings()
            throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, ECHO_COMMANDS, api -> api.scopesWithout("im:read"))) {
            rig.api.user("UGUEST", "Gus", false);
            rig.api.botIm("D7", "UGUEST");
            rig.slash("/stop", "", "UGUEST", "D7");
            until("the answer", () -> rig.api.responses().size() == 1);
            rig.slash("/new", "", "UGUEST", "D7");
            until("the second answer", () -> rig.api.responses().size() == 2);

            assertEquals("got /stop authorized=true", rig.api.responses().get(0).text());
            assertTrue(rig.received.get(0).direct(), "the sender's DM session (slack:dm:UGUEST), not slack:group:D7");
            assertTrue(rig.received.get(1).direct());
            assertEquals(List.of(), rig.api.calls("conversations.info"), "known to be refused: not asked");
            assertEquals(1, rig.api.calls("conversations.history").size(), "asked once, then remembered");
            assertEquals("1", rig.api.calls("conversations.history").get(0).param("limit"));
            assertEquals(List.of(), logged(Level.WARN));
        }
    }

    @Test
    void withoutImRead_aSlashCommandInADmBetweenTwoPeople_isStillNotADmWithTheBot() throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, ECHO_COMMANDS, api -> api.scopesWithout("im:read"))) {
            rig.slash("/queue", "interrupt", "UGUEST", "D8");
            until("the answer", () -> rig.api.responses().size() == 1);
            assertEquals("got /queue interrupt authorized=false", rig.api.responses().get(0).text());
            assertFalse(rig.received.get(0).direct());
        }
    }

    @Test
    void whenSlackDoesNotListTheScopes_aMissingScopeAnswer_switchesToConversationsHistory_withOneWarning()
            throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, ECHO_COMMANDS, api -> {
            api.scopesWithout("im:read");
            api.hideScopes();
        })) {
            rig.api.user("U1", "Ann", false);
            rig.api.user("U2", "Bob", false);
            rig.api.botIm("D7", "U1");
            rig.api.botIm("D9", "U2");
            rig.slash("/status", "", "U1", "D7");
            until("the first answer", () -> rig.api.responses().size() == 1);
            rig.slash("/status", "", "U2", "D9");
            until("the second answer", () -> rig.api.responses().size() == 2);

            assertTrue(rig.received.get(0).direct());
            assertTrue(rig.received.get(1).direct());
            assertEquals(1, rig.api.calls("conversations.info").size(), "refused once, then not asked again");
            assertEquals(2, rig.api.calls("conversations.history").size());
            List<String> warnings = logged(Level.WARN);
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).contains("needs the scope im:read"), warnings.get(0));
            assertEquals(List.of(), logged(Level.ERROR), "nothing known at start, so nothing reported there");
        }
    }

    @Test
    void whenSlackCannotBeAsked_theCommandIsNotRun_andItsUserIsToldPrivately_andTheNextOneIsCheckedAgain()
            throws Exception {
        try (SlackRig rig = SlackRig.gateway(true, ECHO_COMMANDS)) {
            rig.api.botIm("D7", "UGUEST");
            rig.api.failConversationLookups(true);
            rig.slash("/stop", "", "UGUEST", "D7");
            until("the hint", () -> rig.api.responses().size() == 1);

            FakeSlackApi.Response hint = rig.api.responses().get(0);
            assertEquals("⚠️ /stop was not run: I could not check with Slack whether this is your DM with me. "
                    + "Please try again in a moment.", hint.text());
            assertEquals("ephemeral", hint.responseType(), "only the user who typed it sees it");
            assertEquals(List.of(), rig.received, "not handed to the gateway under a guessed session");

            rig.api.failConversationLookups(false);
            rig.slash("/stop", "", "UGUEST", "D7");
            until("the answer", () -> rig.api.responses().size() == 2);
            assertEquals("got /stop authorized=true", rig.api.responses().get(1).text());
            assertTrue(rig.received.get(0).direct());
        }
    }

    @Test
    void scopes_areReadFromTheHeader_andUnknownWhenItIsAbsent() {
        BotScopes scopes = BotScopes.fromHeaders(Map.of("x-oauth-scopes", List.of("chat:write, im:history,commands")));
        assertTrue(scopes.known());
        assertTrue(scopes.lacks("im:read"));
        assertFalse(scopes.lacks("im:history"));
        assertEquals(List.of("app_mentions:read", "channels:history", "groups:history", "im:read", "mpim:history",
                "reactions:write", "users:read", "files:read"), scopes.missing());

        BotScopes unknown = BotScopes.fromHeaders(Map.of());
        assertFalse(unknown.known());
        assertFalse(unknown.lacks("im:read"), "unknown: assumed granted, and tried");
        assertEquals(null, unknown.missingReport());
    }
}
