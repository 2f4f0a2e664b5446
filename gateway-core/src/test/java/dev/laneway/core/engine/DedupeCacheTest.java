package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.InboundMessage;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class DedupeCacheTest {

    private static InboundMessage message(String id) {
        return InboundMessage.builder("test").platformMessageId(id).build();
    }

    @Test
    void memoryIsBounded_theOldestIdsAreForgottenFirst() {
        DedupeCache cache = new DedupeCache(Duration.ofMinutes(5));
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        for (int i = 0; i <= DedupeCache.MAX_ENTRIES; i++) {
            assertTrue(cache.firstSighting(message("m" + i), now));
        }
        assertEquals(DedupeCache.MAX_ENTRIES, cache.size());
        assertFalse(cache.firstSighting(message("m" + DedupeCache.MAX_ENTRIES), now), "recent ids are still known");
        assertTrue(cache.firstSighting(message("m0"), now), "the oldest id was forgotten");
    }

    @Test
    void messagesWithoutAnId_areNeverDuplicates() {
        DedupeCache cache = new DedupeCache(Duration.ofMinutes(5));
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        assertTrue(cache.firstSighting(message(null), now));
        assertTrue(cache.firstSighting(message(null), now));
    }
}
