package dev.laneway.core.engine;

import dev.laneway.core.Disposition;

/**
 * How a run ends: decided by {@link RunDriver} (its agent stopped, its deadline passed, a shutdown
 * came before its start) or {@link Interrupts} (an abort of a run with no agent running), and
 * carried out by the run's {@link SessionQueue}, which owns the session's state.
 */
sealed interface RunEnd {

    /** Its messages end with {@code disposition}; what waits runs next (or the session retires). */
    record Settled(Disposition disposition) implements RunEnd {

        private static final Settled[] BY_DISPOSITION = byDisposition();

        private static Settled[] byDisposition() {
            Disposition[] all = Disposition.values();
            Settled[] settled = new Settled[all.length];
            for (Disposition disposition : all) {
                settled[disposition.ordinal()] = new Settled(disposition);
            }
            return settled;
        }

        /** The one instance for {@code disposition}: every run's end says it, and it holds nothing else. */
        static Settled of(Disposition disposition) {
            return BY_DISPOSITION[disposition.ordinal()];
        }
    }

    /**
     * Stopped by a shutdown: nothing is settled, its messages (and its steers) stay pending in the
     * journal and run again after the restart.
     */
    record LeftPending() implements RunEnd {
    }

    /** Not yet: its agent was asked to abort and the run ends when it stops (or at its deadline). */
    record WhenAgentStops() implements RunEnd {
    }

    RunEnd LEFT_PENDING = new LeftPending();
    RunEnd WHEN_AGENT_STOPS = new WhenAgentStops();
}
