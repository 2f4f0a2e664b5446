package dev.laneway.core.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class BackoffTest {

    private final Backoff backoff = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30), () -> 0.0);

    @Test
    void doubles_fromInitial_upToMax() {
        List<Duration> waits = IntStream.rangeClosed(1, 7).mapToObj(backoff::delay).toList();
        assertEquals(List.of(1L, 2L, 4L, 8L, 16L, 30L, 30L), waits.stream().map(Duration::toSeconds).toList());
        assertEquals(Duration.ofSeconds(30), backoff.delay(1_000_000), "no overflow, however many attempts");
    }

    @Test
    void jitter_takesAtMostItsShareOff_andIsInjected() {
        Backoff full = backoff.withJitter(() -> 0.999_999);
        assertEquals(Duration.ofMillis(3200), full.delay(3).plusNanos(1).truncatedTo(java.time.temporal.ChronoUnit.MILLIS),
                "at most 20 % off");
        Backoff random = Backoff.exponential(Duration.ofSeconds(1), Duration.ofSeconds(30));
        for (int i = 0; i < 1000; i++) {
            Duration wait = random.delay(4);
            assertTrue(wait.compareTo(Duration.ofMillis(6400)) >= 0 && wait.compareTo(Duration.ofSeconds(8)) <= 0,
                    wait.toString());
        }
        assertEquals(Duration.ofSeconds(8), random.nominal(4));
    }

    @Test
    void badSettings_areRefusedNamingTheValue() {
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
                () -> Backoff.exponential(Duration.ZERO, Duration.ofSeconds(1)));
        assertTrue(zero.getMessage().contains("PT0S"), zero.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Backoff.exponential(Duration.ofSeconds(2), Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class, () -> backoff.delay(0));
    }
}
