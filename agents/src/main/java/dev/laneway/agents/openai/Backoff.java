package dev.laneway.agents.openai;

import java.time.Duration;

/** How long to wait before retrying a 429 or 5xx answer: pure, so tests need no clock. */
final class Backoff {

    static final Duration BASE = Duration.ofSeconds(1);
    static final Duration MAX = Duration.ofSeconds(30);
    /** A server asking for more than this is capped, so one answer cannot park a lane for hours. */
    static final Duration MAX_RETRY_AFTER = Duration.ofMinutes(2);

    private Backoff() {
    }

    /**
     * The delay before retry number {@code retry} (0 for the first retry): the server's
     * {@code Retry-After} in seconds when it sent one (capped), else {@code 1 s × 2^retry} up to 30 s.
     */
    static Duration delay(int retry, String retryAfter) {
        Duration asked = parseRetryAfter(retryAfter);
        if (asked != null) {
            return asked.compareTo(MAX_RETRY_AFTER) > 0 ? MAX_RETRY_AFTER : asked;
        }
        return retry >= 5 ? MAX : BASE.multipliedBy(1L << retry);
    }

    /** Seconds as an integer; the HTTP-date form and garbage are ignored (null). */
    static Duration parseRetryAfter(String header) {
        if (header == null || header.isBlank()) {
            return null;
        }
        try {
            long seconds = Long.parseLong(header.strip());
            return seconds < 0 ? null : Duration.ofSeconds(Math.min(seconds, MAX_RETRY_AFTER.toSeconds()));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
