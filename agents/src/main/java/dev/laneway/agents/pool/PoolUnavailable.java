package dev.laneway.agents.pool;

/**
 * A pool refused a call because its circuit breaker is open (docs/behaviour.md §14.4): the run fails
 * at once as {@code unavailable}, for a fallback to take over. An expected outcome: no stack trace.
 */
public final class PoolUnavailable extends Exception {

    private final String pool;

    PoolUnavailable(String pool) {
        super("provider pool " + pool + ": circuit open", null, false, false);
        this.pool = pool;
    }

    public String pool() {
        return pool;
    }
}
