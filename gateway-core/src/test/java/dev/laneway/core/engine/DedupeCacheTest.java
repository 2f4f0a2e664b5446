package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DedupeCacheTest {

    private final ManualTime time = new ManualTime();

    private static InboundMessage message(String id) {
        return InboundMessage.builder("test").platformMessageId(id).build();
    }

    @Test
    void memoryIsBounded_theOldestIdsAreForgottenFirst() {
        DedupeCache cache = new DedupeCache(Duration.ofMinutes(5), time);
        for (int i = 0; i <= DedupeCache.MAX_ENTRIES; i++) {
            assertTrue(cache.firstSighting(message("m" + i)));
        }
        assertEquals(DedupeCache.MAX_ENTRIES, cache.size());
        assertFalse(cache.firstSighting(message("m" + DedupeCache.MAX_ENTRIES)), "recent ids are still known");
        assertTrue(cache.firstSighting(message("m0")), "the oldest id was forgotten");
    }

    @Test
    void messagesWithoutAnId_areNeverDuplicates() {
        DedupeCache cache = new DedupeCache(Duration.ofMinutes(5), time);
        assertTrue(cache.firstSighting(message(null)));
        assertTrue(cache.firstSighting(message(null)));
    }

    @Test
    void anIdIsForgottenOnceTheWindowHasPassed() {
        DedupeCache cache = new DedupeCache(Duration.ofMinutes(5), time);
        assertTrue(cache.firstSighting(message("m1")));
        time.advance(Duration.ofMinutes(4));
        assertFalse(cache.firstSighting(message("m1")));
        time.advance(Duration.ofMinutes(5));
        assertTrue(cache.firstSighting(message("m1")), "redelivered after the window: processed again");
    }

    @Test
    void aZeroWindow_remembersNothing() {
        DedupeCache cache = new DedupeCache(Duration.ZERO, time);
        assertTrue(cache.firstSighting(message("m1")));
        assertTrue(cache.firstSighting(message("m1")));
    }
}
