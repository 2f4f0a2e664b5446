package dev.laneway.core.engine;

/**
 * Why a run stepped down its agent ladder (docs/behaviour.md §13): the {@code reason} label of
 * {@code laneway_agent_fallbacks_total}.
 */
enum FallbackReason {
    /** The scheduler's admission degraded the message (docs/behaviour.md §11.3, §13.3). */
    DEGRADE("degrade"),
    /** The agent's provider could not serve the turn (its circuit is open, or it kept failing). */
    UNAVAILABLE("unavailable"),
    /** A retryable failure (timeout, refused connection) again on the run's last attempt. */
    RETRIES_EXHAUSTED("retries_exhausted");

    final String id;

    FallbackReason(String id) {
        this.id = id;
    }
}
