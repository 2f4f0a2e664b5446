package dev.laneway.core.engine;

import dev.laneway.core.agent.RunOutcome;

/**
 * When a run steps down its agent ladder (docs/behaviour.md §13.2, §13.3): its message was degraded
 * by the scheduler's admission (it starts on its first fallback), or its agent could not answer: a
 * {@code Failed} outcome saying the provider is unavailable, or a retryable failure with no retry
 * left; in both cases only while nothing was delivered and nothing aborted the run. Each agent of a
 * run's ladder is tried at most once, so a run steps down at most once per fallback. Stateless.
 */
final class Fallbacks {

    private Fallbacks() {
    }

    /**
     * Why the run, whose attempt ended with {@code outcome}, continues on its next agent; null when
     * it does not (lock held). {@code retriesLeft}: whether the engine would still retry a retryable
     * failure on the same agent (it does that first).
     */
    static FallbackReason stepDown(Run run, RunOutcome outcome, boolean retriesLeft) {
        if (!(outcome instanceof RunOutcome.Failed failed) || run.delivered || run.abortCause != null
                || !run.hasFallback()) {
            return null;
        }
        if (failed.unavailable()) {
            return FallbackReason.UNAVAILABLE;
        }
        return failed.retryable() && !retriesLeft ? FallbackReason.RETRIES_EXHAUSTED : null;
    }
}
