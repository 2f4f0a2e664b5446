package dev.laneway.agents.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {

    @Test
    void withoutRetryAfter_delayDoublesFromOneSecondUpToThirtySeconds() {
        assertEquals(Duration.ofSeconds(1), Backoff.delay(0, null));
        assertEquals(Duration.ofSeconds(2), Backoff.delay(1, null));
        assertEquals(Duration.ofSeconds(4), Backoff.delay(2, ""));
        assertEquals(Duration.ofSeconds(16), Backoff.delay(4, null));
        assertEquals(Duration.ofSeconds(30), Backoff.delay(5, null));
        assertEquals(Duration.ofSeconds(30), Backoff.delay(60, null));
    }

    @Test
    void retryAfterSeconds_isHonoured_andCappedAtTwoMinutes() {
        assertEquals(Duration.ofSeconds(7), Backoff.delay(0, "7"));
        assertEquals(Duration.ZERO, Backoff.delay(3, " 0 "));
        assertEquals(Duration.ofMinutes(2), Backoff.delay(0, "86400"));
    }

    @Test
    void retryAfterAsDateOrGarbage_fallsBackToExponentialBackoff() {
        assertEquals(Duration.ofSeconds(2), Backoff.delay(1, "Wed, 21 Oct 2015 07:28:00 GMT"));
        assertEquals(Duration.ofSeconds(1), Backoff.delay(0, "-5"));
    }
}
