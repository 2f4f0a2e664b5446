package dev.laneway.agents.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class BackoffTest {

    private static final Instant NOW = Instant.parse("2015-10-21T07:28:00Z");

    @Test
    void withoutRetryAfter_delayDoublesFromOneSecondUpToThirtySeconds() {
        assertEquals(Duration.ofSeconds(1), Backoff.delay(0, null, NOW));
        assertEquals(Duration.ofSeconds(2), Backoff.delay(1, null, NOW));
        assertEquals(Duration.ofSeconds(4), Backoff.delay(2, "", NOW));
        assertEquals(Duration.ofSeconds(16), Backoff.delay(4, null, NOW));
        assertEquals(Duration.ofSeconds(30), Backoff.delay(5, null, NOW));
        assertEquals(Duration.ofSeconds(30), Backoff.delay(60, null, NOW));
    }

    @Test
    void retryAfterSeconds_isHonoured_andCappedAtTwoMinutes() {
        assertEquals(Duration.ofSeconds(7), Backoff.delay(0, "7", NOW));
        assertEquals(Duration.ZERO, Backoff.delay(3, " 0 ", NOW));
        assertEquals(Duration.ofMinutes(2), Backoff.delay(0, "86400", NOW));
    }

    @Test
    void retryAfterAsHttpDate_waitsUntilThatTime_inEachOfTheThreeForms_andIsCapped() {
        assertEquals(Duration.ofSeconds(45), Backoff.delay(0, "Wed, 21 Oct 2015 07:28:45 GMT", NOW));
        assertEquals(Duration.ofSeconds(45), Backoff.delay(0, "Wednesday, 21-Oct-15 07:28:45 GMT", NOW));
        assertEquals(Duration.ofSeconds(45), Backoff.delay(0, "Wed Oct 21 07:28:45 2015", NOW));
        assertEquals(Duration.ofSeconds(5), Backoff.delay(0, "Wed Oct  7 00:00:05 2015",
                Instant.parse("2015-10-07T00:00:00Z")));
        assertEquals(Duration.ofMinutes(2), Backoff.delay(0, "Thu, 22 Oct 2015 07:28:00 GMT", NOW));
    }

    @Test
    void retryAfterDateInThePast_meansRetryAtOnce() {
        assertEquals(Duration.ZERO, Backoff.delay(3, "Wed, 21 Oct 2015 07:27:00 GMT", NOW));
    }

    @Test
    void garbageOrNegativeRetryAfter_fallsBackToExponentialBackoff() {
        assertEquals(Duration.ofSeconds(2), Backoff.delay(1, "soon", NOW));
        assertEquals(Duration.ofSeconds(1), Backoff.delay(0, "-5", NOW));
        assertEquals(Duration.ofSeconds(1), Backoff.delay(0, "Wed, 32 Oct 2015 07:28:00 GMT", NOW));
    }
}
