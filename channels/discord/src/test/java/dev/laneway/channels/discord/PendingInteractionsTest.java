package dev.laneway.channels.discord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class PendingInteractionsTest {

    private final ManualTime time = new ManualTime();

    @Test
    void anAnswerIsFound_untilItsTokenExpires() {
        PendingInteractions<String> pending = new PendingInteractions<>(time, Duration.ofMinutes(14), 10);
        pending.put("i1", "hook-1", true);

        time.advance(Duration.ofMinutes(14).minusMillis(1));
        assertEquals("hook-1", pending.get("i1").orElseThrow().handle());
        assertTrue(pending.get("i1").orElseThrow().ephemeral());

        time.advanceMillis(1);
        assertTrue(pending.get("i1").isEmpty());
        assertEquals(0, pending.size(), "expired entries are removed, not just hidden");
    }

    @Test
    void theMapIsBounded_theOldestIsDroppedFirst() {
        PendingInteractions<String> pending = new PendingInteractions<>(time, Duration.ofMinutes(14), 2);
        pending.put("i1", "hook-1", false);
        pending.put("i2", "hook-2", false);
        pending.put("i3", "hook-3", false);

        assertEquals(2, pending.size());
        assertTrue(pending.get("i1").isEmpty());
        assertEquals("hook-2", pending.get("i2").orElseThrow().handle());
        assertEquals("hook-3", pending.get("i3").orElseThrow().handle());
    }

    @Test
    void aCapacityBelowOne_isRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new PendingInteractions<String>(time, Duration.ofMinutes(1), 0));
        assertEquals("capacity must be >= 1, got 0", e.getMessage());
    }
}
