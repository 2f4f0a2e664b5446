package dev.laneway.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueOverride;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class QueueCommandParserTest {

    private static QueueOverride set(String arguments) {
        return assertInstanceOf(QueueCommand.Set.class, QueueCommandParser.parse(arguments)).override();
    }

    private static List<String> problems(String arguments) {
        return assertInstanceOf(QueueCommand.Invalid.class, QueueCommandParser.parse(arguments)).problems();
    }

    private static QueueCommand.Inline inline(String arguments) {
        return assertInstanceOf(QueueCommand.Inline.class, QueueCommandParser.parse(arguments));
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"   ", "\n\t ", "@MyBot", " @MyBot  @other "})
    void nothingButSpacesAndMentions_isShow(String arguments) {
        assertEquals(new QueueCommand.Show(), QueueCommandParser.parse(arguments));
    }

    @ParameterizedTest
    @CsvSource({
        "steer, STEER", "steering, STEER", "queue, STEER", "queued, STEER",
        "followup, FOLLOWUP", "follow-up, FOLLOWUP", "followups, FOLLOWUP",
        "collect, COLLECT", "coalesce, COLLECT", "COLLECT, COLLECT", "Collect, COLLECT",
        "steer-backlog, STEER_BACKLOG", "steer+backlog, STEER_BACKLOG", "steer_backlog, STEER_BACKLOG",
        "interrupt, INTERRUPT", "abort, INTERRUPT", "ABORT, INTERRUPT"})
    void mode_acceptsEveryAliasCaseInsensitively(String word, QueueMode mode) {
        assertEquals(QueueOverride.mode(mode), set(word));
    }

    @ParameterizedTest
    @CsvSource({
        "debounce:1500, 1500", "debounce:1500ms, 1500", "debounce:2s, 2000", "debounce:1.5s, 1500",
        "debounce:1m30s, 90000", "debounce:2m, 120000", "debounce:1h, 3600000", "debounce:0, 0",
        "debounce=2s, 2000", "DEBOUNCE:2S, 2000", "Debounce=250MS, 250"})
    void debounce_acceptsTheDurationGrammarWithColonOrEquals(String word, long millis) {
        assertEquals(new QueueOverride(null, Duration.ofMillis(millis), null, null), set(word));
    }

    @ParameterizedTest
    @CsvSource({"cap:1, 1", "cap:10, 10", "cap=25, 25", "CAP:007, 7", "cap:2147483647, 2147483647"})
    void cap_acceptsPositiveIntegers(String word, int cap) {
        assertEquals(new QueueOverride(null, null, cap, null), set(word));
    }

    @ParameterizedTest
    @CsvSource({
        "drop:old, OLD", "drop:oldest, OLD", "drop:new, NEW", "drop=newest, NEW",
        "drop:summarize, SUMMARIZE", "drop:summary, SUMMARIZE", "DROP:Summarize, SUMMARIZE"})
    void drop_acceptsEveryPolicyAlias(String word, DropPolicy policy) {
        assertEquals(new QueueOverride(null, null, null, policy), set(word));
    }

    @Test
    void settings_combineInAnyOrder() {
        QueueOverride expected = new QueueOverride(QueueMode.COLLECT, Duration.ofSeconds(2), 25, DropPolicy.SUMMARIZE);
        assertEquals(expected, set("collect debounce:2s cap:25 drop:summarize"));
        assertEquals(expected, set("drop=summary cap=25 COALESCE debounce=2000"));
        assertEquals(expected, set("  cap:25\n\tdebounce:2s   collect drop:summarize  "));
    }

    @Test
    void settings_laterRepetitionWins() {
        assertEquals(new QueueOverride(QueueMode.FOLLOWUP, null, 3, null), set("steer cap:2 followup cap:3"));
    }

    @Test
    void mentions_areStrippedWherever_theyStandAmongSettings() {
        assertEquals(new QueueOverride(QueueMode.FOLLOWUP, null, 5, null), set("@MyBot followup @MyBot cap:5 @x"));
    }

    @Test
    void words_areSeparatedByAnyUnicodeSpace() {
        assertEquals(new QueueOverride(QueueMode.COLLECT, null, 5, null), set("collect\u00A0cap:5"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "reset", "clear", "RESET", " Default ", "@MyBot clear"})
    void resetWords_aloneAreReset(String arguments) {
        assertEquals(new QueueCommand.Reset(), QueueCommandParser.parse(arguments));
    }

    @Test
    void unknownWord_isAnUnrecognizedModeWithTheRawText() {
        assertEquals(List.of("Unrecognized queue mode \"Colect\"."), problems("Colect"));
    }

    @Test
    void aLongBadValue_isQuotedByItsFirst40Characters() {
        String x40 = "x".repeat(40);
        assertEquals(List.of("Unrecognized queue mode \"" + x40 + "…\"."), problems("x".repeat(10_000)));
        assertEquals(List.of("Invalid cap \"" + "9".repeat(40) + "…\". Use a positive integer (e.g. cap:10)."),
                problems("cap:" + "9".repeat(5000)));
        assertEquals(List.of("Invalid debounce \"" + x40 + "…\". Use ms/s/m (e.g. debounce:1500ms, debounce:2s)."),
                problems("debounce:" + "x".repeat(41)));
        assertEquals(List.of("Invalid drop policy \"" + x40 + "\". Use drop:old, drop:new, or drop:summarize."),
                problems("drop:" + x40), "40 characters are quoted whole");
        assertEquals(List.of("Unrecognized queue mode \"" + "y".repeat(39) + "…\"."), problems("y".repeat(39) + "😀😀"),
                "never half an emoji");
    }

    @Test
    void manyProblems_listTheFirstTen_andCountTheRest() {
        QueueCommand.Invalid invalid = assertInstanceOf(QueueCommand.Invalid.class,
                QueueCommandParser.parse("w ".repeat(5000)));
        assertEquals(5000, invalid.problems().size());
        assertEquals("Unrecognized queue mode \"w\". ".repeat(10) + "… and 4990 more.", invalid.message());
    }

    @Test
    void badDebounce_hasTheSpecText() {
        assertEquals(List.of("Invalid debounce \"fast\". Use ms/s/m (e.g. debounce:1500ms, debounce:2s)."),
                problems("debounce:fast"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1s", "2d", "1.s", "", "1s2", "99999999999999999999", "２s"})
    void debounce_rejectsWhatTheDurationGrammarRejects(String raw) {
        assertEquals(List.of("Invalid debounce \"" + raw + "\". Use ms/s/m (e.g. debounce:1500ms, debounce:2s)."),
                problems("debounce:" + raw));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "1.5", "ten", "", "+5", "2147483648", "99999999999999999999", "1e3", "٣"})
    void cap_rejectsAnythingButAPositiveInteger(String raw) {
        assertEquals(List.of("Invalid cap \"" + raw + "\". Use a positive integer (e.g. cap:10)."),
                problems("cap:" + raw));
    }

    @ParameterizedTest
    @ValueSource(strings = {"maybe", "", "oldest-first", "none"})
    void drop_rejectsUnknownPolicies(String raw) {
        assertEquals(List.of("Invalid drop policy \"" + raw + "\". Use drop:old, drop:new, or drop:summarize."),
                problems("drop:" + raw));
    }

    @Test
    void invalid_listsEveryProblemInMessageOrder() {
        QueueCommand.Invalid invalid = assertInstanceOf(QueueCommand.Invalid.class,
                QueueCommandParser.parse("cap:0 collect debounce:fast drop:maybe"));
        assertEquals("Invalid cap \"0\". Use a positive integer (e.g. cap:10)."
                + " Invalid debounce \"fast\". Use ms/s/m (e.g. debounce:1500ms, debounce:2s)."
                + " Invalid drop policy \"maybe\". Use drop:old, drop:new, or drop:summarize.", invalid.message());
    }

    @Test
    void standalone_startingWithAnUnknownWord_reportsEveryWordNotUnderstood() {
        assertEquals(List.of(
                        "Unrecognized queue mode \"colect\".",
                        "Invalid cap \"0\". Use a positive integer (e.g. cap:10).",
                        "Unrecognized queue mode \"reset\"."),
                problems("colect cap:0 debounce:2s reset"));
    }

    @Test
    void standalone_unknownKey_isAnUnrecognizedMode() {
        assertEquals(List.of("Unrecognized queue mode \"mode:collect\"."), problems("mode:collect"));
    }

    @Test
    void inline_settingsThenText_splitsDirectiveAndText() {
        QueueCommand.Inline inline = inline("collect cap:5 what is the weather?");
        assertEquals("collect cap:5", inline.directive());
        assertEquals(new QueueCommand.Set(new QueueOverride(QueueMode.COLLECT, null, 5, null)), inline.settings());
        assertEquals("what is the weather?", inline.text());
    }

    @Test
    void inline_textIsKeptVerbatim_includingMentionsSettingsWordsAndLineBreaks() {
        QueueCommand.Inline inline = inline(" @MyBot interrupt  please\n  ask @alice about cap:3 and collect \n");
        assertEquals("@MyBot interrupt", inline.directive());
        assertEquals(new QueueCommand.Set(QueueOverride.mode(QueueMode.INTERRUPT)), inline.settings());
        assertEquals("please\n  ask @alice about cap:3 and collect \n", inline.text());
    }

    @Test
    void inline_aResetWordAfterSettings_startsTheText() {
        assertEquals("reset my password", inline("followup reset my password").text());
    }

    @Test
    void inline_withBadValues_isAnInlineCarryingTheProblems() {
        QueueCommand.Inline inline = inline("steer cap:0 hello");
        assertEquals(new QueueCommand.Invalid(List.of("Invalid cap \"0\". Use a positive integer (e.g. cap:10).")),
                inline.settings());
        assertEquals("hello", inline.text());
    }
}
