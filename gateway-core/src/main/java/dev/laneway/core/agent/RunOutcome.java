package dev.laneway.core.agent;

import java.util.List;
import java.util.Objects;

/** How a run ended; each carries the steers it accepted but never showed to the model. */
public sealed interface RunOutcome {

    List<SteerMessage> unseenSteers();

    /** The run answered (possibly with no text). */
    record Completed(List<SteerMessage> unseenSteers) implements RunOutcome {
        public Completed {
            unseenSteers = List.copyOf(unseenSteers);
        }

        public static Completed clean() {
            return new Completed(List.of());
        }
    }

    /**
     * The run failed.
     *
     * @param reason      a short reason for the user, e.g. {@code timeout}, {@code HTTP 500}
     * @param retryable   whether trying the same turn again may succeed (timeouts, 5xx); a turn that
     *                    already delivered text is never retried, whatever this says
     * @param unavailable the agent's model provider could not serve the turn at all (its circuit is
     *                    open, or it kept failing with 5xx or timeouts): another agent (a fallback)
     *                    may; nothing was delivered
     */
    record Failed(String reason, boolean retryable, List<SteerMessage> unseenSteers, boolean unavailable)
            implements RunOutcome {
        public Failed {
            Objects.requireNonNull(reason, "reason");
            unseenSteers = List.copyOf(unseenSteers);
        }

        public Failed(String reason, boolean retryable, List<SteerMessage> unseenSteers) {
            this(reason, retryable, unseenSteers, false);
        }

        public static Failed of(String reason, boolean retryable) {
            return new Failed(reason, retryable, List.of());
        }

        /** The provider could not serve the turn (see {@code unavailable}); not retried on the same agent. */
        public static Failed unavailable(String reason, List<SteerMessage> unseenSteers) {
            return new Failed(reason, false, unseenSteers, true);
        }
    }

    /** The run stopped because it was aborted. */
    record Aborted(List<SteerMessage> unseenSteers) implements RunOutcome {
        public Aborted {
            unseenSteers = List.copyOf(unseenSteers);
        }
    }

    /**
     * A run that failed with an unhandled message, already reported to the user by the agent (e.g.
     * the provider rejected the API key): never retried, no generic failure reply added.
     */
    record Reported(String reason, List<SteerMessage> unseenSteers) implements RunOutcome {
        public Reported {
            Objects.requireNonNull(reason, "reason");
            unseenSteers = List.copyOf(unseenSteers);
        }
    }
}
