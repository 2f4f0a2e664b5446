package dev.laneway.core.engine;

import dev.laneway.core.scheduling.PriorityClass;
import dev.laneway.core.scheduling.SchedulingObserver;
import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import java.time.Duration;
import java.util.Locale;

/**
 * What the engine reports for metrics: every disposition, every finished run, lane waits, the
 * scheduler's grants, promotions and admission decisions,
 * drain delays, outbound sends, failed sends and rate limits, agent retries, empty answers. Calls
 * come from engine, agent and channel threads (never under a session lock): implementations must be
 * thread-safe and must not block (counters and timers only).
 */
public interface GatewayObserver extends DispositionListener, SchedulingObserver {

    GatewayObserver NONE = new GatewayObserver() {
    };

    @Override
    default void recorded(InboundMessage message, Disposition disposition) {
    }

    /**
     * A run ended (after its last attempt).
     *
     * @param agent    the agent's name
     * @param waited   from the run's creation until its agent started (lane waits included)
     * @param duration from the agent's start until it ended
     * @param outcome  how its last attempt ended
     */
    default void runFinished(String agent, Duration waited, Duration duration, RunResult outcome) {
    }

    /** How a finished run's last attempt ended, by the kind of the agent's {@code RunOutcome}. */
    enum RunResult {
        COMPLETED, FAILED, ABORTED, REPORTED;

        /** The lower-case name metrics and logs use: {@code completed}, {@code failed}, {@code aborted}, {@code reported}. */
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** A run got a slot in a lane after waiting this long (zero when it got one at once). */
    default void laneWaited(String lane, Duration waited) {
    }

    /** A followup drain started this long after the last message was queued. */
    default void drainDelayed(Duration delay) {
    }

    /** A reply chunk was handed to a channel. */
    default void sent(String channel) {
    }

    /**
     * A reply chunk could not be handed to a channel: the adapter gave up (after its own retries)
     * and the chunk is lost. The message still counts as answered.
     */
    default void sendFailed(String channel) {
    }

    /** A channel was told by its platform to slow down (HTTP 429 or equivalent). */
    default void rateLimited(String channel) {
    }

    /** An agent retried a model call (429, 5xx) within a run. */
    default void agentRetried(String agent) {
    }

    /** A run completed without a word for the user (no reply, or only blank ones); the user was told. */
    default void emptyAnswer(String agent) {
    }

    /**
     * A message that would start a run was deferred (queued, its sender told where they stand) or
     * shed (turned away with the busy reply) at admission (docs/behaviour.md §11.3).
     *
     * @param priority its class
     * @param action   {@code defer}, {@code shed} or {@code degrade}
     * @param reason   {@code over_budget} or {@code tenant_pending_cap}
     */
    default void admission(PriorityClass priority, String action, String reason) {
    }

    /**
     * A run stepped down its agent ladder (docs/behaviour.md §13): it continues on {@code to}.
     *
     * @param from   the agent it leaves (its bound agent for a degrade)
     * @param to     the fallback agent it continues on
     * @param reason {@code degrade}, {@code unavailable} or {@code retries_exhausted}
     */
    default void fallback(String from, String to, String reason) {
    }
}
