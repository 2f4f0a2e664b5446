package dev.laneway.agents.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The adaptive limit's algorithm (docs/decisions.md D63), call by call. */
class AdaptiveLimitTest {

    private long grants;

    /** {@code count} successful calls, each seeing the limit full. */
    private void succeed(AdaptiveLimit limit, int count) {
        for (int i = 0; i < count; i++) {
            grants++;
            limit.succeeded(limit.limit());
        }
    }

    @Test
    void itStartsLow_andGrowsByOnePerSuccess_upToTheMaximum() {
        AdaptiveLimit limit = new AdaptiveLimit(10);
        assertEquals(4, limit.limit());
        succeed(limit, 3);
        assertEquals(7, limit.limit());
        succeed(limit, 10);
        assertEquals(10, limit.limit(), "never above the maximum");
        assertEquals(2, new AdaptiveLimit(2).limit(), "a maximum below 4 is where it starts");
    }

    @Test
    void aSuccessWhileTheLimitWasNotFull_saysNothing() {
        AdaptiveLimit limit = new AdaptiveLimit(10);
        assertFalse(limit.succeeded(1), "1 call of 4 in flight: the limit held nothing back");
        assertTrue(limit.succeeded(2), "half of it in flight counts");
    }

    @Test
    void aPushBack_setsTheCeilingBelowWhatTheCallSaw_andTheLimitTo90PercentOfIt() {
        AdaptiveLimit limit = new AdaptiveLimit(64);
        succeed(limit, 30); // 34
        assertTrue(limit.pushedBack(++grants, 21, grants)); // the 21st call in flight got the 429
        assertEquals(20, limit.ceiling());
        assertEquals(18, limit.limit());
        succeed(limit, 5);
        assertEquals(20, limit.limit(), "back to the ceiling quickly, and no further");
    }

    @Test
    void callsGrantedBeforeTheDecrease_sayNothingNew() {
        AdaptiveLimit limit = new AdaptiveLimit(64);
        succeed(limit, 20); // 24
        long inFlightA = ++grants;
        long inFlightB = ++grants;
        assertTrue(limit.pushedBack(inFlightA, 24, grants));
        assertFalse(limit.pushedBack(inFlightB, 24, grants), "granted before the decrease: the same news");
        assertTrue(limit.pushedBack(++grants, limit.limit(), grants), "a call granted after it counts");
    }

    @Test
    void atTheCeiling_itProbesOneHigherAfter200Successes_andAProbeThatHoldsRaisesTheCeiling() {
        AdaptiveLimit limit = new AdaptiveLimit(64);
        succeed(limit, 10);
        limit.pushedBack(++grants, 11, grants); // ceiling 10, limit 9
        succeed(limit, 1);
        assertEquals(10, limit.limit());
        succeed(limit, AdaptiveLimit.PROBE_AFTER - 1);
        assertEquals(10, limit.limit());
        succeed(limit, 1);
        assertEquals(11, limit.limit(), "the probe");
        assertEquals(11, limit.ceiling());
        limit.pushedBack(++grants, 11, grants); // the provider still takes only 10
        assertEquals(10, limit.ceiling());
        assertEquals(9, limit.limit());
    }

    @Test
    void itNeverFallsBelowOne() {
        AdaptiveLimit limit = new AdaptiveLimit(8);
        for (int i = 0; i < 5; i++) {
            limit.pushedBack(++grants, 1, grants);
        }
        assertEquals(1, limit.limit());
        assertEquals(1, limit.ceiling());
    }
}
