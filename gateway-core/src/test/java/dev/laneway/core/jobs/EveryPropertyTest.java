package dev.laneway.core.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** An interval's fires keep the phase of the last fire (docs/behaviour.md §12). */
class EveryPropertyTest {

    private static final Instant BASE = Instant.parse("2026-03-02T00:00:00Z");

    @Property
    void nextIsTheFirstFireOfTheAnchorsPhaseStrictlyAfter(@ForAll @LongRange(min = 1, max = 86_400_000) long intervalMs,
                                                          @ForAll @LongRange(min = -10_000_000, max = 500_000_000) long afterMs) {
        Every every = new Every(Duration.ofMillis(intervalMs));
        Instant after = BASE.plusMillis(afterMs);
        Instant next = every.next(after, BASE).orElseThrow();
        assertTrue(next.isAfter(after));
        if (!BASE.isAfter(after)) {
            assertEquals(0, Duration.between(BASE, next).toMillis() % intervalMs, "in the anchor's phase");
            assertTrue(!next.minusMillis(intervalMs).isAfter(after), "the first such fire");
        }
    }

    @Property
    void latestIsTheLastFireOfTheSincePhaseWithinTheWindow(@ForAll @LongRange(min = 1, max = 86_400_000) long intervalMs,
                                                           @ForAll @LongRange(min = 0, max = 500_000_000) long downMs) {
        Every every = new Every(Duration.ofMillis(intervalMs));
        Instant until = BASE.plusMillis(downMs);
        Optional<Instant> latest = every.latest(BASE, until);
        if (downMs < intervalMs) {
            assertEquals(Optional.empty(), latest);
            return;
        }
        Instant fire = latest.orElseThrow();
        assertTrue(fire.isAfter(BASE) && !fire.isAfter(until));
        assertEquals(0, Duration.between(BASE, fire).toMillis() % intervalMs);
        assertTrue(fire.plusMillis(intervalMs).isAfter(until), "the latest one");
    }

    @Test
    void aJobThatNeverFiredFiresOneIntervalAfterStart() {
        assertEquals(Optional.of(BASE.plus(Duration.ofMinutes(30))), new Every(Duration.ofMinutes(30)).next(BASE, null));
        assertEquals("every 1h30m", new Every(Duration.ofMinutes(90)).describe());
    }
}
