package dev.laneway.core.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class RetryAfterTest {

    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

    @Test
    void header_isDeltaSeconds_possiblyFractional() {
        assertEquals(Duration.ofSeconds(7), RetryAfter.fromHeader("7", NOW));
        assertEquals(Duration.ofMillis(2500), RetryAfter.fromHeader(" 2.5 ", NOW));
    }

    @Test
    void header_mayBeAnHttpDate() {
        assertEquals(Duration.ofSeconds(90), RetryAfter.fromHeader("Sun, 01 Mar 2026 12:01:30 GMT", NOW));
        assertEquals(RetryAfter.MIN, RetryAfter.fromHeader("Sun, 01 Mar 2026 11:00:00 GMT", NOW), "a date passed");
    }

    @Test
    void missingOrUnreadable_isTheDefault() {
        assertEquals(RetryAfter.DEFAULT, RetryAfter.fromHeader(null, NOW));
        assertEquals(RetryAfter.DEFAULT, RetryAfter.fromHeader("soon", NOW));
        assertEquals(RetryAfter.DEFAULT, RetryAfter.fromJson("<html>502 Bad Gateway</html>"));
        assertEquals(RetryAfter.DEFAULT, RetryAfter.fromJson(null));
        assertEquals(RetryAfter.DEFAULT, RetryAfter.ofSeconds(null));
    }

    @Test
    void jsonBody_retryAfter_wherever_itIsNested() {
        assertEquals(Duration.ofSeconds(12), RetryAfter.fromJson(
                "{\"ok\":false,\"error_code\":429,\"parameters\":{\"retry_after\":12}}"));
        assertEquals(Duration.ofMillis(1337), RetryAfter.fromJson(
                "{\"message\": \"You are being rate limited.\", \"retry_after\": 1.337, \"global\": false}"));
    }

    @Test
    void theHeaderWins_overTheBody_andTheBodyOverTheDefault() {
        assertEquals(Duration.ofSeconds(3), RetryAfter.from("3", "{\"retry_after\": 9}", NOW));
        assertEquals(Duration.ofSeconds(9), RetryAfter.from("later", "{\"retry_after\": 9}", NOW));
        assertEquals(RetryAfter.DEFAULT, RetryAfter.from(null, "{}", NOW));
    }

    @Test
    void oneClamp_forEveryReading() {
        assertEquals(RetryAfter.MAX, RetryAfter.fromHeader("86400", NOW));
        assertEquals(RetryAfter.MAX, RetryAfter.fromJson("{\"retry_after\": 1e12}"));
        assertEquals(RetryAfter.MAX, RetryAfter.ofSeconds(999_999_999L));
        assertEquals(RetryAfter.MIN, RetryAfter.fromHeader("0", NOW));
        assertEquals(RetryAfter.MIN, RetryAfter.fromJson("{\"retry_after\": 0.2}"));
        assertEquals(RetryAfter.MIN, RetryAfter.ofSeconds(-5));
        assertEquals(Duration.ofSeconds(490), RetryAfter.ofSeconds(490), "a long flood wait is kept");
    }

    @Property
    void anyHeaderOrBody_givesAWaitWithinTheClamp(@ForAll String text) {
        Duration header = RetryAfter.fromHeader(text, NOW);
        Duration body = RetryAfter.fromJson("{\"retry_after\": " + text + "}");
        for (Duration wait : new Duration[] {header, body}) {
            assertEquals(wait, RetryAfter.clamp(wait));
        }
    }
}
