package dev.laneway.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.QueueOverride;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/** Fuzzing {@link QueueCommandParser}: it never throws, and what it does not understand changes nothing. */
class QueueCommandParserPropertyTest {

    private static final Pattern SPEC_PROBLEM = Pattern.compile(
            "Unrecognized queue mode \"\\S*\"\\."
            + "|Invalid debounce \"\\S*\"\\. Use ms/s/m \\(e\\.g\\. debounce:1500ms, debounce:2s\\)\\."
            + "|Invalid cap \"\\S*\"\\. Use a positive integer \\(e\\.g\\. cap:10\\)\\."
            + "|Invalid drop policy \"\\S*\"\\. Use drop:old, drop:new, or drop:summarize\\.");

    @Property(tries = 2000)
    void anyString_parsesWithoutThrowing_andEveryProblemIsASpecText(@ForAll String arguments) {
        assertWellFormed(QueueCommandParser.parse(arguments));
    }

    @Property(tries = 1000)
    void anyWordsOfTheGrammarsAlphabet_parseWithoutThrowing(@ForAll("grammarish") String arguments) {
        assertWellFormed(QueueCommandParser.parse(arguments));
    }

    @Property(tries = 2000)
    void tokenSequences_meanExactlyWhatTheRuleSays(@ForAll @Size(max = 8) List<@From("words") Word> words,
                                                    @ForAll @Size(9) List<@From("separators") String> gaps) {
        StringBuilder text = new StringBuilder(gaps.get(0));
        List<Integer> starts = new ArrayList<>();
        for (int i = 0; i < words.size(); i++) {
            starts.add(text.length());
            text.append(words.get(i).raw()).append(gaps.get(i + 1));
        }
        assertEquals(expected(words, starts, text.toString()), QueueCommandParser.parse(text.toString()));
    }

    /** The rule of {@link QueueCommandParser}, restated over words whose meaning the generator knows. */
    private static QueueCommand expected(List<Word> all, List<Integer> starts, String text) {
        List<Word> words = all.stream().filter(word -> word.kind() != Kind.MENTION).toList();
        if (words.isEmpty()) {
            return new QueueCommand.Show();
        }
        if (words.size() == 1 && words.getFirst().kind() == Kind.RESET) {
            return new QueueCommand.Reset();
        }
        if (!words.getFirst().isSetting()) {
            return new QueueCommand.Invalid(words.stream().map(Word::problem).filter(p -> p != null).toList());
        }
        int firstOfText = -1;
        for (int i = 0; i < all.size() && firstOfText < 0; i++) {
            if (all.get(i).kind() != Kind.MENTION && !all.get(i).isSetting()) {
                firstOfText = i;
            }
        }
        List<Word> settings = firstOfText < 0 ? all : all.subList(0, firstOfText);
        QueueCommand.Settings meaning = meaning(settings);
        if (firstOfText < 0) {
            return (QueueCommand) meaning;
        }
        int start = starts.get(firstOfText);
        return new QueueCommand.Inline(text.substring(0, start).strip(), meaning, text.substring(start));
    }

    private static QueueCommand.Settings meaning(List<Word> settings) {
        List<String> problems = settings.stream().map(Word::problem).filter(p -> p != null).toList();
        if (!problems.isEmpty()) {
            return new QueueCommand.Invalid(problems);
        }
        QueueOverride merged = QueueOverride.NONE;
        for (Word word : settings) {
            merged = merged.merge(word.value());
        }
        return new QueueCommand.Set(merged);
    }

    private static void assertWellFormed(QueueCommand command) {
        switch (command) {
            case QueueCommand.Invalid invalid -> assertProblems(invalid);
            case QueueCommand.Inline inline -> {
                assertFalse(inline.text().isBlank());
                if (inline.settings() instanceof QueueCommand.Invalid invalid) {
                    assertProblems(invalid);
                }
            }
            case QueueCommand.Set set -> assertFalse(set.override().isEmpty());
            case QueueCommand.Show show -> { }
            case QueueCommand.Reset reset -> { }
            case QueueCommand.Status status -> { }
            case QueueCommand.Cancel cancel -> { }
        }
    }

    private static void assertProblems(QueueCommand.Invalid invalid) {
        assertFalse(invalid.problems().isEmpty());
        invalid.problems().forEach(problem ->
                assertTrue(SPEC_PROBLEM.matcher(problem).matches(), () -> "not a spec text: " + problem));
        List<String> problems = invalid.problems();
        int listed = Math.min(problems.size(), QueueCommand.Invalid.MAX_LISTED);
        assertEquals(String.join(" ", problems.subList(0, listed))
                + (problems.size() > listed ? " … and " + (problems.size() - listed) + " more." : ""), invalid.message());
    }

    enum Kind { SETTING, BAD_SETTING, UNKNOWN, RESET, MENTION }

    /** A word with the meaning the parser must give it: an override, a problem, or neither. */
    record Word(String raw, Kind kind, QueueOverride value, String problem) {
        boolean isSetting() {
            return kind == Kind.SETTING || kind == Kind.BAD_SETTING;
        }
    }

    @Provide
    Arbitrary<Word> words() {
        return Arbitraries.oneOf(modes(), debounces(), caps(), drops(), badDebounces(), badCaps(), badDrops(),
                unknownWords(), resetWords(), mentions());
    }

    @Provide
    Arbitrary<String> separators() {
        return Arbitraries.of(" ", "  ", "\t", "\n", " \n ", "\u00A0", "\u2003").list().ofMinSize(1).ofMaxSize(2)
                .map(parts -> String.join("", parts));
    }

    @Provide
    Arbitrary<String> grammarish() {
        Arbitrary<String> word = Arbitraries.oneOf(
                Arbitraries.of("collect", "steer", "@bot", "reset", "cap", "debounce", "drop", "=", ":", "::", "0",
                        "-1", "1.5s", "1m30s", "99999999999999999999999", "\u0000", "\uD83D\uDE00", "İ", "ß"),
                Arbitraries.strings().ofMaxLength(6));
        return word.list().ofMaxSize(10).map(parts -> String.join("", parts));
    }

    private static Arbitrary<Word> modes() {
        return Arbitraries.of("steer", "STEERING", "queue", "queued", "followup", "Follow-Up", "followups",
                        "collect", "coalesce", "steer-backlog", "steer+backlog", "steer_backlog", "interrupt", "abort")
                .map(raw -> new Word(raw, Kind.SETTING,
                        QueueOverride.mode(dev.laneway.core.QueueMode.parse(raw).orElseThrow()), null));
    }

    private static Arbitrary<Word> debounces() {
        return Combinators.combine(key("debounce"), Arbitraries.longs().between(0, 600_000))
                .as((key, millis) -> new Word(key + millis + "ms", Kind.SETTING,
                        new QueueOverride(null, Duration.ofMillis(millis), null, null), null));
    }

    private static Arbitrary<Word> caps() {
        return Combinators.combine(key("cap"), Arbitraries.integers().between(1, Integer.MAX_VALUE))
                .as((key, cap) -> new Word(key + cap, Kind.SETTING, new QueueOverride(null, null, cap, null), null));
    }

    private static Arbitrary<Word> drops() {
        return Combinators.combine(key("drop"), Arbitraries.of("old", "oldest", "new", "newest", "summarize", "summary"))
                .as((key, policy) -> new Word(key + policy, Kind.SETTING,
                        new QueueOverride(null, null, null, dev.laneway.core.DropPolicy.parse(policy).orElseThrow()),
                        null));
    }

    private static Arbitrary<Word> badDebounces() {
        return Combinators.combine(key("debounce"), Arbitraries.of("fast", "", "-1s", "2d", "1.s", "1e3", "s"))
                .as((key, raw) -> new Word(key + raw, Kind.BAD_SETTING, null, Problems.debounce(raw)));
    }

    private static Arbitrary<Word> badCaps() {
        return Combinators.combine(key("cap"), Arbitraries.of("0", "-3", "1.5", "lots", "", "2147483648", "00"))
                .as((key, raw) -> new Word(key + raw, Kind.BAD_SETTING, null, Problems.cap(raw)));
    }

    private static Arbitrary<Word> badDrops() {
        return Combinators.combine(key("drop"), Arbitraries.of("maybe", "", "all", "old:new", "=new"))
                .as((key, raw) -> new Word(key + raw, Kind.BAD_SETTING, null, Problems.drop(raw)));
    }

    private static Arbitrary<Word> unknownWords() {
        Arbitrary<String> fuzz = Arbitraries.strings().withChars("xyzé?!:=/\uD83D\uDE00").ofMinLength(1).ofMaxLength(8)
                .map(raw -> "x" + raw);
        return Arbitraries.oneOf(fuzz, Arbitraries.of("hello", "colect", "mode:collect", "debounce", "cap", "cap;3", "/queue"))
                .map(raw -> new Word(raw, Kind.UNKNOWN, null, Problems.mode(raw)));
    }

    private static Arbitrary<Word> resetWords() {
        return Arbitraries.of("default", "reset", "clear", "CLEAR")
                .map(raw -> new Word(raw, Kind.RESET, null, Problems.mode(raw)));
    }

    private static Arbitrary<Word> mentions() {
        return Arbitraries.of("@bot", "@MyBot", "@", "@cap:0", "@colect")
                .map(raw -> new Word(raw, Kind.MENTION, null, null));
    }

    private static Arbitrary<String> key(String name) {
        return Arbitraries.of(name + ":", name + "=", name.toUpperCase() + ":");
    }
}
