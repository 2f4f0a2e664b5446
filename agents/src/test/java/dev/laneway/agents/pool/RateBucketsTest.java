package dev.laneway.agents.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

/** rpm and tpm as buckets of a minute's worth (docs/behaviour.md §14.2). */
class RateBucketsTest {

    @Test
    void rpm_letsAMinutesWorthGo_thenBooksEachNextCallAnIntervalLater() {
        RateBuckets buckets = new RateBuckets(3, 0, 0);
        assertEquals(0, buckets.reserveCall(0));
        assertEquals(0, buckets.reserveCall(0));
        assertEquals(0, buckets.reserveCall(0));
        assertEquals(20_000, buckets.reserveCall(0), "the 4th waits for the next token: 60 s / 3");
        assertEquals(40_000, buckets.reserveCall(0), "the 5th books the one after");
        assertEquals(0, buckets.reserveCall(100_000), "refilled meanwhile");
    }

    @Test
    void tpm_isDebitedByWhatCallsUsed_andACallWaitsWhileItIsInDebt() {
        RateBuckets buckets = new RateBuckets(0, 1_000, 0);
        assertEquals(0, buckets.reserveCall(0));
        buckets.spend(0, 1_500);
        assertEquals(30_060, buckets.reserveCall(0), "500 in debt: back above zero after 501 tokens' worth");
        assertEquals(0, buckets.reserveCall(30_060));
    }

    @Test
    void zeroMeansNoLimit() {
        RateBuckets buckets = new RateBuckets(0, 0, 0);
        assertFalse(buckets.limited());
        for (int i = 0; i < 1_000; i++) {
            assertEquals(0, buckets.reserveCall(0));
        }
    }
}
