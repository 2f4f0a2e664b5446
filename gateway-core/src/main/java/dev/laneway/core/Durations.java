package dev.laneway.core;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one duration grammar of Laneway, shared by config and {@code /queue}: {@code 0}, a bare
 * number of milliseconds ({@code 1500}), or number+unit parts with {@code ms}, {@code s},
 * {@code m}, {@code h} ({@code 1.5s}, {@code 2m}, {@code 1m30s}).
 */
public final class Durations {

    private static final Pattern BARE = Pattern.compile("\\d+(\\.\\d+)?");
    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");
    /**
     * The grammar as one regular expression over the trimmed, lower-cased text (for the JSON Schema,
     * docs/configuration.md §18); {@link #parse} also refuses more than a year.
     */
    public static final String SYNTAX = "(" + BARE.pattern() + ")|(" + PART.pattern() + ")+";
    private static final long MAX_MILLIS = Duration.ofDays(365).toMillis();

    private Durations() {
    }

    /** Parses a duration; empty when the text is not one (negative, unknown unit, garbage, > 1 year). */
    public static Optional<Duration> parse(String raw) {
        if (raw == null) {
            return Optional.empty();
        }
        String text = raw.trim().toLowerCase(Locale.ROOT);
        if (text.isEmpty() || text.length() > 40) {
            return Optional.empty();
        }
        BigDecimal millis;
        if (BARE.matcher(text).matches()) {
            millis = new BigDecimal(text);
        } else {
            millis = parseParts(text);
            if (millis == null) {
                return Optional.empty();
            }
        }
        if (millis.compareTo(BigDecimal.valueOf(MAX_MILLIS)) > 0) {
            return Optional.empty();
        }
        return Optional.of(Duration.ofMillis(millis.longValue()));
    }

    private static BigDecimal parseParts(String text) {
        Matcher matcher = PART.matcher(text);
        BigDecimal total = BigDecimal.ZERO;
        int position = 0;
        while (position < text.length()) {
            if (!matcher.find(position) || matcher.start() != position) {
                return null;
            }
            BigDecimal amount = new BigDecimal(matcher.group(1));
            total = total.add(amount.multiply(BigDecimal.valueOf(unitMillis(matcher.group(2)))));
            position = matcher.end();
        }
        return total;
    }

    private static long unitMillis(String unit) {
        return switch (unit) {
            case "ms" -> 1;
            case "s" -> 1_000;
            case "m" -> 60_000;
            case "h" -> 3_600_000;
            default -> throw new IllegalStateException("unit " + unit);
        };
    }
}
