package dev.laneway.core.agent;

import java.util.List;
import java.util.concurrent.CompletionStage;

/** A run in progress: it completes once, can be steered (if the agent supports it) and aborted. */
public interface AgentRun {

    /** Completes once with the outcome; never completes exceptionally for a failed turn. */
    CompletionStage<RunOutcome> completion();

    /**
     * Offers user messages to the running conversation, to be appended before the next model call.
     * Must not block and must not call back into the gateway: the engine calls it while holding the
     * session lock, so that a steer and the run's completion are totally ordered. Returns
     * {@link SteerResult#REFUSED} when the agent cannot steer or the run is finishing; a steer that
     * was accepted but never reached the model is reported back in the outcome's
     * {@link RunOutcome#unseenSteers()}.
     */
    SteerResult steer(List<SteerMessage> messages);

    /**
     * Asks the run to stop at once. Idempotent and non-blocking. An aborted run completes with
     * {@link RunOutcome.Aborted} when it has actually stopped; the engine discards anything it
     * emits after the abort.
     */
    void abort();
}
