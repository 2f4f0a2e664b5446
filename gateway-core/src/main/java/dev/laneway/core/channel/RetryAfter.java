package dev.laneway.core.channel;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How long a platform asked to wait before the next request (HTTP 429): read from a
 * {@code Retry-After} header (seconds, fractional as Discord sends them, or an HTTP date), from a
 * JSON body's {@code retry_after} (Telegram's {@code parameters.retry_after}, Discord's body), or
 * from a number an SDK already parsed. Every reading goes through the one {@link #clamp}: nothing
 * shorter than {@link #MIN} (a fraction of a second more never hurts, and a zero would retry at
 * once), nothing longer than {@link #MAX} (a broken header cannot stall a chat for hours), and
 * {@link #DEFAULT} when the platform named no wait or an unreadable one.
 */
public final class RetryAfter {

    public static final Duration MIN = Duration.ofSeconds(1);
    public static final Duration MAX = Duration.ofMinutes(10);
    /** The wait when the platform named none (or one that cannot be read). */
    public static final Duration DEFAULT = MIN;

    private static final Pattern JSON_RETRY_AFTER =
            Pattern.compile("\"retry_after\"\\s*:\\s*(-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)");
    private static final int MAX_NUMBER_LENGTH = 24;

    private RetryAfter() {
    }

    /** The one clamp: {@code null} means {@link #DEFAULT}; the result lies in [{@link #MIN}, {@link #MAX}]. */
    public static Duration clamp(Duration wait) {
        if (wait == null) {
            return DEFAULT;
        }
        if (wait.compareTo(MIN) < 0) {
            return MIN;
        }
        return wait.compareTo(MAX) > 0 ? MAX : wait;
    }

    /** A number of seconds an SDK parsed already (Telegram's {@code retry_after}); {@code null} means none given. */
    public static Duration ofSeconds(Number seconds) {
        if (seconds == null) {
            return DEFAULT;
        }
        return clamp(seconds(new BigDecimal(seconds.toString())).orElse(null));
    }

    /** A {@code Retry-After} header's value at {@code now}: delta-seconds or an HTTP date; absent or unreadable is {@link #DEFAULT}. */
    public static Duration fromHeader(String value, Instant now) {
        return clamp(readHeader(value, now).orElse(null));
    }

    /** The {@code retry_after} (seconds) of a JSON error body, wherever it is nested; absent or unreadable is {@link #DEFAULT}. */
    public static Duration fromJson(String body) {
        return clamp(readJson(body).orElse(null));
    }

    /** The header if it can be read, else the body's {@code retry_after}, else {@link #DEFAULT}. */
    public static Duration from(String header, String body, Instant now) {
        return clamp(readHeader(header, now).or(() -> readJson(body)).orElse(null));
    }

    static Optional<Duration> readHeader(String value, Instant now) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        String trimmed = value.trim();
        if (trimmed.length() <= MAX_NUMBER_LENGTH && trimmed.matches("\\d+(?:\\.\\d+)?")) {
            return seconds(new BigDecimal(trimmed));
        }
        try {
            Instant at = ZonedDateTime.parse(trimmed, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            return Optional.of(at.isAfter(now) ? Duration.between(now, at) : Duration.ZERO);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    static Optional<Duration> readJson(String body) {
        if (body == null) {
            return Optional.empty();
        }
        Matcher number = JSON_RETRY_AFTER.matcher(body);
        if (!number.find() || number.group(1).length() > MAX_NUMBER_LENGTH) {
            return Optional.empty();
        }
        try {
            return seconds(new BigDecimal(number.group(1)));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Seconds (maybe fractional) as a duration; negative counts as zero, absurdly large as {@link #MAX}. */
    private static Optional<Duration> seconds(BigDecimal seconds) {
        if (seconds.signum() <= 0) {
            return Optional.of(Duration.ZERO);
        }
        if (seconds.compareTo(BigDecimal.valueOf(MAX.toSeconds())) > 0) {
            return Optional.of(MAX);
        }
        return Optional.of(Duration.ofMillis(seconds.movePointRight(3).longValue()));
    }
}
