package dev.laneway.commands;

import dev.laneway.core.DropPolicy;
import dev.laneway.core.Durations;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueOverride;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Parses the arguments of {@code /queue} (the text after the command word) per docs/behaviour.md §6.2.
 * Pure: no I/O, no state, and it never throws, whatever the input.
 *
 * <p>The text is split at whitespace; words starting with {@code @} (mentions) are ignored. A
 * <em>setting</em> is a queue mode or one of its aliases ({@link QueueMode#parse}), or
 * {@code debounce}, {@code cap} or {@code drop} followed by {@code :} or {@code =} and a value,
 * valid or not (keys case-insensitive). Values: {@code <dur>} per {@link Durations#parse},
 * {@code <n>} an integer &gt;= 1, {@code <policy>} per {@link DropPolicy#parse}. When a setting
 * appears twice, the later one wins.
 *
 * <p>The rule, applied to the words after the mentions are dropped:
 * <ol>
 *   <li>no words: {@link QueueCommand.Show};</li>
 *   <li>exactly one word, {@code default}, {@code reset} or {@code clear}:
 *       {@link QueueCommand.Reset} (elsewhere these words are ordinary words);</li>
 *   <li>{@code status} alone: {@link QueueCommand.Status}; {@code cancel} alone or {@code cancel all}:
 *       {@link QueueCommand.Cancel} (docs/behaviour.md §6.9);</li>
 *   <li>the first word is not a setting: a standalone command that was not understood:
 *       {@link QueueCommand.Invalid} listing every word that is not a setting as
 *       {@code Unrecognized queue mode "<raw>".} and every invalid value with its own text.
 *       (A message can only be an inline directive if it starts with a setting, so
 *       {@code /queue colect} is a typo, never text for the agent);</li>
 *   <li>every word is a setting: a standalone command, {@link QueueCommand.Set} when all values
 *       are valid, else {@link QueueCommand.Invalid} listing every bad value;</li>
 *   <li>otherwise an inline directive, {@link QueueCommand.Inline}: the leading settings are the
 *       directive, and the first word that is not a setting starts the text, which is kept
 *       verbatim to the end of the message (mentions and settings-looking words in it included).</li>
 * </ol>
 * Problems are listed in message order, each raw value as typed.
 */
public final class QueueCommandParser {

    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,10}");

    private QueueCommandParser() {
    }

    /** Parses the text after {@code /queue} (or {@code /queue@bot}); null counts as empty. */
    public static QueueCommand parse(String arguments) {
        String text = arguments == null ? "" : arguments;
        List<Token> words = Token.split(text).stream().filter(token -> !token.isMention()).toList();
        if (words.isEmpty()) {
            return new QueueCommand.Show();
        }
        if (words.size() == 1 && isResetWord(words.getFirst().raw())) {
            return new QueueCommand.Reset();
        }
        String first = words.getFirst().raw().toLowerCase(Locale.ROOT);
        if (words.size() == 1 && first.equals("status")) {
            return new QueueCommand.Status();
        }
        if (first.equals("cancel") && (words.size() == 1
                || (words.size() == 2 && words.get(1).raw().equalsIgnoreCase("all")))) {
            return new QueueCommand.Cancel(words.size() == 2);
        }
        List<Setting> settings = new ArrayList<>();
        for (Token word : words) {
            Optional<Setting> setting = Setting.of(word.raw());
            if (setting.isEmpty()) {
                return settings.isEmpty()
                        ? notUnderstood(words)
                        : inline(text, word, settings);
            }
            settings.add(setting.get());
        }
        return combine(settings);
    }

    private static QueueCommand.Inline inline(String text, Token firstOfText, List<Setting> settings) {
        String directive = text.substring(0, firstOfText.start()).strip();
        return new QueueCommand.Inline(directive, combine(settings), text.substring(firstOfText.start()));
    }

    private static QueueCommand.Invalid notUnderstood(List<Token> words) {
        List<String> problems = new ArrayList<>();
        for (Token word : words) {
            Optional<Setting> setting = Setting.of(word.raw());
            if (setting.isEmpty()) {
                problems.add(Problems.mode(word.raw()));
            } else if (setting.get().problem() != null) {
                problems.add(setting.get().problem());
            }
        }
        return new QueueCommand.Invalid(problems);
    }

    private static QueueCommand.Settings combine(List<Setting> settings) {
        List<String> problems = new ArrayList<>();
        QueueOverride merged = QueueOverride.NONE;
        for (Setting setting : settings) {
            if (setting.problem() != null) {
                problems.add(setting.problem());
            } else {
                merged = merged.merge(setting.value());
            }
        }
        return problems.isEmpty() ? new QueueCommand.Set(merged) : new QueueCommand.Invalid(problems);
    }

    private static boolean isResetWord(String word) {
        return switch (word.toLowerCase(Locale.ROOT)) {
            case "default", "reset", "clear" -> true;
            default -> false;
        };
    }

    /** One settings word: either a value (one field set) or a problem in the words of docs/behaviour.md §6.3. */
    private record Setting(QueueOverride value, String problem) {

        /** The setting {@code word} names, or empty when it is not a setting at all. */
        static Optional<Setting> of(String word) {
            Optional<QueueMode> mode = QueueMode.parse(word);
            if (mode.isPresent()) {
                return Optional.of(valid(QueueOverride.mode(mode.get())));
            }
            int separator = separatorIndex(word);
            if (separator <= 0) {
                return Optional.empty();
            }
            String value = word.substring(separator + 1);
            return switch (word.substring(0, separator).toLowerCase(Locale.ROOT)) {
                case "debounce" -> Optional.of(debounce(value));
                case "cap" -> Optional.of(cap(value));
                case "drop" -> Optional.of(drop(value));
                default -> Optional.empty();
            };
        }

        private static Setting debounce(String raw) {
            return Durations.parse(raw)
                    .map(duration -> valid(new QueueOverride(null, duration, null, null)))
                    .orElseGet(() -> invalid(Problems.debounce(raw)));
        }

        private static Setting cap(String raw) {
            if (DIGITS.matcher(raw).matches()) {
                long cap = Long.parseLong(raw);
                if (cap >= 1 && cap <= Integer.MAX_VALUE) {
                    return valid(new QueueOverride(null, null, (int) cap, null));
                }
            }
            return invalid(Problems.cap(raw));
        }

        private static Setting drop(String raw) {
            return DropPolicy.parse(raw)
                    .map(policy -> valid(new QueueOverride(null, null, null, policy)))
                    .orElseGet(() -> invalid(Problems.drop(raw)));
        }

        private static int separatorIndex(String word) {
            int colon = word.indexOf(':');
            int equals = word.indexOf('=');
            if (colon < 0 || equals < 0) {
                return Math.max(colon, equals);
            }
            return Math.min(colon, equals);
        }

        private static Setting valid(QueueOverride value) {
            return new Setting(value, null);
        }

        private static Setting invalid(String problem) {
            return new Setting(null, problem);
        }
    }
}
