package dev.laneway.agents.openai;

import dev.laneway.agents.pool.ProviderPool;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;

/** How long to wait before retrying a 429 or 5xx answer: pure ({@code now} is an argument), so tests need no clock. */
final class Backoff {

    static final Duration BASE = Duration.ofSeconds(1);
    static final Duration MAX = Duration.ofSeconds(30);
    /** A server asking for more than this is capped, so one answer cannot park a lane for hours. */
    static final Duration MAX_RETRY_AFTER = Duration.ofMinutes(2);

    /** The three HTTP-date forms of RFC 9110 section 5.6.7: IMF-fixdate, then the obsolete RFC 850 and asctime. */
    private static final List<DateTimeFormatter> HTTP_DATES = List.of(
            DateTimeFormatter.RFC_1123_DATE_TIME,
            DateTimeFormatter.ofPattern("EEEE, dd-MMM-yy HH:mm:ss zzz", Locale.US),
            DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.US).withZone(ZoneOffset.UTC));

    private Backoff() {
    }

    /**
     * The delay before retry number {@code retry} (0 for the first retry): what the server's
     * {@code Retry-After} asks for, as seconds or as an HTTP date (capped at {@link #MAX_RETRY_AFTER};
     * a date already past means at once), else {@code 1 s × 2^retry} up to 30 s.
     */
    static Duration delay(int retry, String retryAfter, Instant now) {
        Duration asked = parseRetryAfter(retryAfter, now);
        if (asked != null) {
            return asked;
        }
        return retry >= 5 ? MAX : BASE.multipliedBy(1L << retry);
    }

    /** Seconds as an integer, or an HTTP date relative to {@code now}, capped; garbage is ignored (null). */
    static Duration parseRetryAfter(String header, Instant now) {
        if (header == null || header.isBlank()) {
            return null;
        }
        String text = header.strip();
        try {
            long seconds = Long.parseLong(text);
            return seconds < 0 ? null : cap(Duration.ofSeconds(Math.min(seconds, MAX_RETRY_AFTER.toSeconds())));
        } catch (NumberFormatException e) {
            Instant at = httpDate(text);
            if (at == null) {
                return null;
            }
            return at.isAfter(now) ? cap(Duration.between(now, at)) : Duration.ZERO;
        }
    }

    /**
     * What is wrong with a {@code Retry-After} header, if anything: malformed (neither seconds nor an
     * HTTP date: the backoff is used instead) or asking for more than {@link #MAX_RETRY_AFTER} (clamped).
     * Null when it is absent or fine.
     */
    static ProviderPool.RetryAfterProblem problem(String header, Instant now) {
        if (header == null || header.isBlank()) {
            return null;
        }
        String text = header.strip();
        Duration asked;
        try {
            long seconds = Long.parseLong(text);
            if (seconds < 0) {
                return ProviderPool.RetryAfterProblem.MALFORMED;
            }
            asked = seconds > MAX_RETRY_AFTER.toSeconds() ? MAX_RETRY_AFTER.plusSeconds(1) : Duration.ofSeconds(seconds);
        } catch (NumberFormatException e) {
            Instant at = httpDate(text);
            if (at == null) {
                return ProviderPool.RetryAfterProblem.MALFORMED;
            }
            asked = Duration.between(now, at);
        }
        return asked.compareTo(MAX_RETRY_AFTER) > 0 ? ProviderPool.RetryAfterProblem.CLAMPED : null;
    }

    private static Instant httpDate(String text) {
        for (DateTimeFormatter format : HTTP_DATES) {
            try {
                return ZonedDateTime.parse(text, format).toInstant();
            } catch (DateTimeParseException e) {
                // try the next form
            }
        }
        return null;
    }

    private static Duration cap(Duration asked) {
        return asked.compareTo(MAX_RETRY_AFTER) > 0 ? MAX_RETRY_AFTER : asked;
    }
}
