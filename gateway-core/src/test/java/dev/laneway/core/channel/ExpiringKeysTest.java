package dev.laneway.core.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ExpiringKeysTest {

    private final ManualTime time = new ManualTime();

    @Test
    void aKeyIsFreshOnce_untilItsTtlHasPassedSinceItWasLastAdded() {
        ExpiringKeys keys = new ExpiringKeys(time, Duration.ofMinutes(10), 100);
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
        ExpiringKeys keys = new ExpiringKeys(time, Duration.ofHours(1), 2);
        keys.add("a");
        keys.add("b");
        keys.add("c");
        assertFalse(keys.contains("a"));
        assertTrue(keys.contains("b"));
        assertTrue(keys.contains("c"));
        assertEquals(2, keys.size());
    }

    @Test
    void aForgottenKeyIsFreshAgain() {
        ExpiringKeys keys = new ExpiringKeys(time, Duration.ofHours(1), 10);
        keys.add("a");
        assertTrue(keys.remove("a"));
        assertFalse(keys.remove("a"));
        assertTrue(keys.add("a"));
    }

    @Test
    void settingsAreValidated() {
        assertThrows(IllegalArgumentException.class, () -> new ExpiringKeys(time, Duration.ZERO, 1));
        assertThrows(IllegalArgumentException.class, () -> new ExpiringKeys(time, Duration.ofSeconds(1), 0));
    }

    @Test
    void entries_keepTheirAgeWhenReplaced_andExpireInOrder() {
        ExpiringEntries<String> entries = new ExpiringEntries<>(time, Duration.ofMinutes(15), 10);
        assertTrue(entries.putIfAbsent("i1", "awaiting"));
        assertFalse(entries.putIfAbsent("i1", "again"));
        time.advance(Duration.ofMinutes(10));
        assertTrue(entries.replace("i1", "answered"));
        assertEquals("answered", entries.get("i1"));
        time.advance(Duration.ofMinutes(5));
        assertNull(entries.get("i1"), "replacing did not extend its life");
        assertFalse(entries.replace("i1", "late"));
    }
}
