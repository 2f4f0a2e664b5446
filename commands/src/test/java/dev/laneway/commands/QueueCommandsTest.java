package dev.laneway.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.DropPolicy;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueOverride;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.SessionKey;
import dev.laneway.core.command.CommandContext;
import dev.laneway.core.command.CommandDecision;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code /queue} through {@link ChatCommands}. */
class QueueCommandsTest {

    private static final SessionKey SESSION = SessionKey.of("console:dm:you");
    private static final String DENIED = "⛔ You are not allowed to change queue settings here.";

    private final RecordingControl control = new RecordingControl();
    private final ChatCommands commands = new ChatCommands();

    private CommandDecision send(String text, boolean authorized) {
        InboundMessage message = InboundMessage.builder("console").text(text).build();
        return commands.handle(message, new CommandContext(SESSION, authorized, control));
    }

    private CommandDecision send(String text) {
        return send(text, true);
    }

    private static CommandDecision reply(String text) {
        return new CommandDecision.Reply(text);
    }

    @Test
    void show_describesTheEffectiveSettingsAndTheOptions() {
        control.settings = new QueueSettings(QueueMode.STEER_BACKLOG, Duration.ofMillis(1500), 7, DropPolicy.NEW);

        assertEquals(reply("Current queue settings: mode=steer-backlog, debounce=1500ms, cap=7, drop=new.\n"
                + "Options: modes steer, followup, collect, steer-backlog, interrupt; "
                + "debounce:<ms|s|m>, cap:<n>, drop:old|new|summarize."), send("/queue"));
        assertEquals(List.of("effectiveSettings(console:dm:you, console)"), control.calls);
    }

    @Test
    void show_inAGroup_namesASendersPartOfTheCap_unlessThereIsNone() {
        InboundMessage group = InboundMessage.builder("telegram").chatId("-100").senderId("42").direct(false)
                .text("/queue").build();
        CommandContext context = new CommandContext(SessionKey.of("telegram:group:-100"), false, control);

        assertEquals(reply("Current queue settings: mode=collect, debounce=1000ms, cap=20 (10 per sender), drop=summarize.\n"
                + "Options: modes steer, followup, collect, steer-backlog, interrupt; "
                + "debounce:<ms|s|m>, cap:<n>, drop:old|new|summarize."), commands.handle(group, context));
        control.capPerSender = 0;
        assertTrue(((CommandDecision.Reply) commands.handle(group, context)).text().contains(", cap=20, drop="));
        control.capPerSender = null;
        control.settings = new QueueSettings(QueueMode.COLLECT, Duration.ofMillis(1000), 1, DropPolicy.OLD);
        assertTrue(((CommandDecision.Reply) commands.handle(group, context)).text().contains(", cap=1, drop="),
                "a cap of one has no part");
    }

    @Test
    void show_isOpenToSendersWhoMayNotChangeSettings() {
        CommandDecision decision = send("/QUEUE@MyBot", false);

        assertEquals(reply("Current queue settings: mode=collect, debounce=1000ms, cap=20, drop=summarize.\n"
                + "Options: modes steer, followup, collect, steer-backlog, interrupt; "
                + "debounce:<ms|s|m>, cap:<n>, drop:old|new|summarize."), decision);
    }

    @Test
    void set_repliesOnlyWithTheChangedParts() {
        assertEquals(reply("⚙️ Queue cap set to 10."), send("/queue cap:10"));
        assertEquals(reply("⚙️ Queue mode set to followup. ⚙️ Queue debounce set to 2000ms."),
                send("/queue debounce=2s follow-up"));
    }

    @Test
    void set_repliesInTheOrderModeDebounceCapDrop_withCanonicalNames() {
        assertEquals(reply("⚙️ Queue mode set to steer-backlog. ⚙️ Queue debounce set to 90000ms."
                        + " ⚙️ Queue cap set to 5. ⚙️ Queue drop set to old."),
                send("/queue drop:oldest cap:5 debounce:1m30s steer+backlog"));
    }

    @Test
    void set_mergesIntoTheStoredOverride_andSavesOnce() {
        control.stored = new QueueOverride(QueueMode.INTERRUPT, Duration.ofSeconds(3), null, null);

        send("/queue collect cap:4");

        assertEquals(List.of(new QueueOverride(QueueMode.COLLECT, Duration.ofSeconds(3), 4, null)), control.saved);
        assertEquals(List.of("setSessionOverride(console:dm:you)"), control.changes());
    }

    @Test
    void set_debounceZeroIsValid() {
        assertEquals(reply("⚙️ Queue debounce set to 0ms."), send("/queue debounce:0"));
        assertEquals(List.of(new QueueOverride(null, Duration.ZERO, null, null)), control.saved);
    }

    @Test
    void set_withABotSuffixOnTheCommandWord() {
        assertEquals(reply("⚙️ Queue mode set to followup."), send("/queue@MyBot followup"));
        assertEquals(List.of(QueueOverride.mode(QueueMode.FOLLOWUP)), control.saved);
    }

    @Test
    void reset_removesTheSessionOverride() {
        control.stored = QueueOverride.mode(QueueMode.STEER);

        assertEquals(reply("⚙️ Queue mode reset to default."), send("/queue clear"));
        assertEquals(List.of(QueueOverride.NONE), control.saved);
    }

    @Test
    void invalid_repliesWithEveryProblem_andSavesNothing() {
        CommandDecision decision = send("/queue debounce:fast cap:0 drop:maybe");

        assertEquals(reply("Invalid debounce \"fast\". Use ms/s/m (e.g. debounce:1500ms, debounce:2s)."
                + " Invalid cap \"0\". Use a positive integer (e.g. cap:10)."
                + " Invalid drop policy \"maybe\". Use drop:old, drop:new, or drop:summarize."), decision);
        assertEquals(List.of(), control.changes());
    }

    @Test
    void invalid_oneBadValueSpoilsTheValidOnes() {
        assertEquals(reply("Unrecognized queue mode \"colect\"."), send("/queue colect cap:5"));
        assertEquals(List.of(), control.saved);
    }

    @Test
    void invalid_aHugeArgument_getsOneShortReply_echoingOnlyAShortPrefix() {
        CommandDecision.Reply decision = (CommandDecision.Reply) send("/queue " + "z".repeat(10_000));
        assertEquals("Unrecognized queue mode \"" + "z".repeat(40) + "…\".", decision.text());
        CommandDecision.Reply many = (CommandDecision.Reply) send("/queue " + "cap:0 debounce:slow ".repeat(500));
        assertTrue(many.text().length() < 2000, "one message on every platform: " + many.text().length());
        assertTrue(many.text().endsWith("… and 990 more."), many.text());
        assertEquals(List.of(), control.changes());
    }

    @Test
    void unauthorized_setChangesNothing() {
        assertEquals(reply(DENIED), send("/queue interrupt", false));
        assertEquals(List.of(), control.changes());
    }

    @Test
    void unauthorized_resetChangesNothing() {
        assertEquals(reply(DENIED), send("/queue reset", false));
        assertEquals(List.of(), control.changes());
    }

    @Test
    void unauthorized_invalidIsRefusedBeforeItIsValidated() {
        assertEquals(reply(DENIED), send("/queue cap:0", false));
    }

    @Test
    void inline_appliesToThisMessageOnly_andSendsTheRestToTheAgent() {
        CommandDecision decision = send("/queue interrupt cap:3 never mind, summarize this instead");

        assertEquals(new CommandDecision.Inline(new QueueOverride(QueueMode.INTERRUPT, null, 3, null),
                "never mind, summarize this instead", null), decision);
        assertEquals(List.of(), control.changes());
    }

    @Test
    void inline_unauthorized_keepsTheTextAndNoticesTheRefusal() {
        CommandDecision decision = send("/queue@MyBot steer look at this\nplease", false);

        assertEquals(new CommandDecision.Inline(QueueOverride.NONE, "look at this\nplease", DENIED), decision);
        assertEquals(List.of(), control.changes());
    }

    @Test
    void inline_invalid_keepsTheTextAndNoticesTheProblems() {
        CommandDecision decision = send("/queue collect drop:maybe what now?");

        assertEquals(new CommandDecision.Inline(QueueOverride.NONE, "what now?",
                "Invalid drop policy \"maybe\". Use drop:old, drop:new, or drop:summarize."), decision);
        assertEquals(List.of(), control.changes());
    }
}
