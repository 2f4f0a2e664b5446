package dev.laneway.channels.slack;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RecentKeysTest {

    private final ManualTime time = new ManualTime();

    @Test
    void aKeyIsFreshOnce_untilItsTtlHasPassedSinceItWasLastAdded() {
        RecentKeys keys = new RecentKeys(time, Duration.ofMinutes(10), 100);
        assertTrue(keys.add("Ev1"));
        assertFalse(keys.add("Ev1"));
        time.advance(Duration.ofMinutes(9));
        assertFalse(keys.add("Ev1"), "re-adding refreshes the key");
        time.advance(Duration.ofMinutes(9));
        assertTrue(keys.contains("Ev1"));
        time.advance(Duration.ofMinutes(2));
        assertFalse(keys.contains("Ev1"));
        assertTrue(keys.add("Ev1"));
    }

    @Test
    void theOldestKeyGoesWhenTheBoundIsReached() {
        RecentKeys keys = new RecentKeys(time, Duration.ofHours(1), 2);
        keys.add("a");
        keys.add("b");
        keys.add("c");
        assertFalse(keys.contains("a"));
        assertTrue(keys.contains("b"));
        assertTrue(keys.contains("c"));
    }

    @Test
    void settingsAreValidated() {
        assertThrows(IllegalArgumentException.class, () -> new RecentKeys(time, Duration.ZERO, 1));
        assertThrows(IllegalArgumentException.class, () -> new RecentKeys(time, Duration.ofSeconds(1), 0));
    }
}
