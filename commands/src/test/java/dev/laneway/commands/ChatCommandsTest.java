package dev.laneway.commands;

import dev.laneway.core.scheduling.WaitEstimate;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.laneway.core.DropPolicy;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.Route;
import dev.laneway.core.SessionKey;
import dev.laneway.core.command.CommandContext;
import dev.laneway.core.command.CommandDecision;
import dev.laneway.core.command.SessionStatus;
import dev.laneway.core.jobs.JobStatus;
import dev.laneway.core.jobs.JobTarget;
import dev.laneway.core.lane.LaneSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Dispatch, {@code /stop}, {@code /new}, {@code /status}. */
class ChatCommandsTest {

    private static final SessionKey SESSION = SessionKey.of("console:dm:you");

    private final RecordingControl control = new RecordingControl();
    private final ChatCommands commands = new ChatCommands();

    private CommandDecision send(String text, boolean direct, boolean authorized) {
        InboundMessage message = InboundMessage.builder("console").text(text).direct(direct).build();
        return commands.handle(message, new CommandContext(SESSION, authorized, control));
    }

    private CommandDecision dm(String text) {
        return send(text, true, false);
    }

    private static CommandDecision reply(String text) {
        return new CommandDecision.Reply(text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "hello", "what does /stop do?", "/help", "/queuefoo", "/stopnow", "/", "/@MyBot",
        "//queue", "queue collect", "\\queue", "/start", "/new_chat", "@MyBot /stop"})
    void anythingElse_isNotACommand_soTheAgentSeesIt(String text) {
        assertEquals(CommandDecision.NOT_A_COMMAND, send(text, true, true));
        assertEquals(List.of(), control.calls);
    }

    @Test
    void stop_abortsTheRun() {
        assertEquals(reply("⚙️ Agent was aborted."), dm("/stop"));
        assertEquals(List.of("stop(console:dm:you)"), control.calls);
    }

    @Test
    void stop_reportsClearedQueuedMessages() {
        control.clearedOnStop = 3;

        assertEquals(reply("⚙️ Agent was aborted. Cleared 3 queued message(s)."), dm("/STOP@MyBot"));
    }

    @Test
    void stop_inAGroup_needsAuthorization() {
        assertEquals(reply("⛔ You are not allowed to use /stop here."), send("/stop", false, false));
        assertEquals(List.of(), control.calls);

        assertEquals(reply("⚙️ Agent was aborted."), send("/stop", false, true));
    }

    @Test
    void stop_ignoresArguments() {
        assertEquals(reply("⚙️ Agent was aborted."), dm("  /stop please stop"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/new", "/reset", "/New@MyBot", "/RESET"})
    void newAndReset_startANewConversation(String text) {
        assertEquals(reply("⚙️ Started a new conversation."), dm(text));
        assertEquals(List.of("newConversation(console:dm:you)"), control.calls);
    }

    @Test
    void new_inAGroup_needsAuthorization() {
        assertEquals(reply("⛔ You are not allowed to use /new here."), send("/new", false, false));
        assertEquals(reply("⛔ You are not allowed to use /reset here."), send("/reset", false, false));
        assertEquals(List.of(), control.calls);

        assertEquals(reply("⚙️ Started a new conversation."), send("/new", false, true));
    }

    @Test
    void status_showsSettingsQueueRunAgeAndLanes() {
        control.status = new SessionStatus(
                new QueueSettings(QueueMode.COLLECT, Duration.ofMillis(1000), 20, DropPolicy.SUMMARIZE),
                2, Duration.ofMillis(12_400),
                List.of(new LaneSnapshot("session:console:dm:you", 1, 1, 0), new LaneSnapshot("main", 4, 1, 0)));

        assertEquals(reply("""
                Status: mode=collect, debounce=1000ms, cap=20, drop=summarize.
                Queue: 2 queued; active run for 12s.
                Lanes: session:console:dm:you 1/1 active, 0 queued; main 1/4 active, 0 queued."""),
                send("/status", false, false));
        assertEquals(List.of("status(console:dm:you, console)"), control.calls);
    }

    @Test
    void status_ofASessionWaitingForMain_saysWhereItStandsInLine() {
        control.status = new SessionStatus(
                new QueueSettings(QueueMode.COLLECT, Duration.ofMillis(1000), 20, DropPolicy.SUMMARIZE),
                0, Duration.ofMillis(2_000),
                List.of(new LaneSnapshot("session:console:dm:you", 1, 1, 0), new LaneSnapshot("main", 4, 4, 3)),
                new WaitEstimate(2, Duration.ofMillis(14_200)));

        assertEquals(reply("""
                Status: mode=collect, debounce=1000ms, cap=20, drop=summarize.
                Queue: 0 queued; active run for 2s.
                Lanes: session:console:dm:you 1/1 active, 0 queued; main 4/4 active, 3 queued.
                Waiting: #3 in line, about 15 s."""),
                send("/status", false, false));
    }

    @Test
    void status_namesTheAgentThatAnswersHere_withItsFallbacks_onTheLastLine() {
        SessionStatus plain = new SessionStatus(
                new QueueSettings(QueueMode.COLLECT, Duration.ofMillis(1000), 20, DropPolicy.SUMMARIZE), 0, null,
                List.of(new LaneSnapshot("main", 4, 0, 0)), new WaitEstimate(0, Duration.ofMillis(3_000)));
        control.status = plain.withAgent("main", List.of("local", "tiny"));

        assertEquals(reply("""
                Status: mode=collect, debounce=1000ms, cap=20, drop=summarize.
                Queue: 0 queued; idle.
                Lanes: main 0/4 active, 0 queued.
                Waiting: #1 in line, about 3 s.
                Agent: main (fallback: local, tiny)."""), send("/status", false, false));

        control.status = plain.withAgent("support", List.of());
        assertEquals(reply("""
                Status: mode=collect, debounce=1000ms, cap=20, drop=summarize.
                Queue: 0 queued; idle.
                Lanes: main 0/4 active, 0 queued.
                Waiting: #1 in line, about 3 s.
                Agent: support."""), send("/status", false, false));
    }

    @Test
    void status_ofAnIdleSessionWithoutLanes() {
        control.status = new SessionStatus(
                new QueueSettings(QueueMode.INTERRUPT, Duration.ZERO, 1, DropPolicy.OLD), 0, null, List.of());

        assertEquals(reply("""
                Status: mode=interrupt, debounce=0ms, cap=1, drop=old.
                Queue: 0 queued; idle.
                Lanes: none."""), dm("/status@MyBot"));
    }

    @Test
    void status_runAgeUsesMinutesAndHours() {
        assertEquals("0s", StatusText.age(Duration.ofMillis(999)));
        assertEquals("1m30s", StatusText.age(Duration.ofSeconds(90)));
        assertEquals("2h0m5s", StatusText.age(Duration.ofSeconds(7205)));
        assertEquals("0s", StatusText.age(Duration.ofSeconds(-4)));
    }

    @Test
    void status_listsTheScheduledJobsPostingToThisConversation_withTheirNextFireInTheirZone() {
        List<Route> asked = new java.util.ArrayList<>();
        JobStatus morning = new JobStatus("morning", new JobTarget("console", "chat", null), "cron \"0 8 * * 1-5\" in Europe/Berlin",
                ZoneId.of("Europe/Berlin"), Instant.parse("2026-03-02T07:00:00Z"), null, 0);
        JobStatus done = new JobStatus("once", new JobTarget("console", "chat", null), "every 1h", ZoneOffset.UTC, null,
                null, 0);
        ChatCommands withJobs = new ChatCommands(conversation -> {
            asked.add(conversation);
            return List.of(morning, done);
        });
        control.status = new SessionStatus(QueueSettings.DEFAULTS, 0, null, List.of());
        InboundMessage message = InboundMessage.builder("console").text("/status").platformMessageId("m9").build();
        assertEquals(reply("""
                Status: mode=collect, debounce=1000ms, cap=20, drop=summarize.
                Queue: 0 queued; idle.
                Lanes: none.
                Jobs: morning next 2026-03-02 08:00 Europe/Berlin; once no next fire."""),
                withJobs.handle(message, new CommandContext(SESSION, false, control)));
        assertEquals(List.of(new Route("console", "default", "chat", null, null)), asked,
                "asked for the conversation, not the message");
    }
}
