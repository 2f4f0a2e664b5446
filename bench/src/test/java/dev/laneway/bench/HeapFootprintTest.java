package dev.laneway.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The dedupe heap row must stay below gateway-core's dedupe bound, which it reads by reflection. */
class HeapFootprintTest {

    @Test
    void dedupeBound_canBeReadFromGatewayCore() {
        assertTrue(HeapFootprint.dedupeCap() > 0);
    }

    @Test
    void dedupeMeasurement_staysBelowTheBound() {
        assertTrue(HeapFootprint.dedupeIds() > 0);
        assertTrue(HeapFootprint.dedupeIds() < HeapFootprint.dedupeCap());
    }
}
