package dev.laneway.agents.pool;

/**
 * A pool's adaptive concurrency limit ({@code adaptive: true}; docs/behaviour.md §14.3,
 * docs/decisions.md D63): additive increase, multiplicative decrease, with a memory of where the
 * provider last pushed back.
 *
 * <ul>
 *   <li>It starts at {@link #INITIAL} (or the maximum, if lower) and, while calls fill at least half of
 *       it, grows by one per successful call (so it about doubles per round of calls) up to the
 *       <em>ceiling</em>: the last concurrency the provider accepted.</li>
 *   <li>A 429 or a timeout from a call granted after the last decrease means the provider is full at
 *       the concurrency that call saw: the ceiling becomes one less than that, and the limit
 *       {@link #BACKOFF} of the ceiling. Calls that were already granted then say nothing new (calls
 *       are numbered as they are granted; a clock could not tell calls granted in one millisecond apart).</li>
 *   <li>At the ceiling it grows by one only after {@link #PROBE_AFTER} successes there: a probe, in
 *       case the provider's capacity grew. A probe that succeeds as long moves the ceiling up.</li>
 * </ul>
 *
 * So once settled it sits at the provider's capacity and costs about one 429 per
 * {@link #PROBE_AFTER} calls, where a plain AIMD keeps climbing back into the wall. Not thread-safe:
 * guarded by its pool's lock.
 */
final class AdaptiveLimit {

    static final int INITIAL = 4;
    static final double BACKOFF = 0.9;
    static final int PROBE_AFTER = 200;

    private final int max;
    private int limit;
    private int ceiling;
    private int successesAtCeiling;
    /** Calls granted up to this number were in flight at the last decrease. */
    private long lastDecreaseGrant = Long.MIN_VALUE;

    AdaptiveLimit(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("an adaptive limit needs a maximum >= 1, got " + max);
        }
        this.max = max;
        this.limit = Math.min(max, INITIAL);
        this.ceiling = max;
    }

    int limit() {
        return limit;
    }

    int ceiling() {
        return ceiling;
    }

    /**
     * A call succeeded.
     *
     * @param inFlight calls in flight when it started, itself included
     * @return whether the limit changed
     */
    boolean succeeded(int inFlight) {
        if (inFlight * 2 < limit) {
            return false; // the limit was not what held calls back: success says nothing about it
        }
        if (limit < ceiling) {
            limit++;
            return true;
        }
        if (limit >= max || ++successesAtCeiling < PROBE_AFTER) {
            return false;
        }
        successesAtCeiling = 0;
        limit++;
        ceiling = limit; // probing one above; a 429 there puts the ceiling back
        return true;
    }

    /**
     * The provider pushed back (429) or a call timed out.
     *
     * @param grant       the call's grant number (one granted before the last decrease is ignored)
     * @param inFlight    calls in flight when it was granted, itself included
     * @param latestGrant the number of the latest call granted so far
     * @return whether the limit changed
     */
    boolean pushedBack(long grant, int inFlight, long latestGrant) {
        if (grant <= lastDecreaseGrant) {
            return false;
        }
        lastDecreaseGrant = latestGrant;
        successesAtCeiling = 0;
        ceiling = Math.max(1, Math.min(max, inFlight - 1));
        int before = limit;
        limit = Math.max(1, Math.min(limit, (int) Math.floor(ceiling * BACKOFF)));
        return limit != before;
    }
}
