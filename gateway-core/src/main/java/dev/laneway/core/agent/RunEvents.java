package dev.laneway.core.agent;

import java.util.List;

/**
 * What a run reports while it runs. Safe to call from any thread; after the run is aborted every
 * call is ignored, so an aborted run sends nothing more.
 */
public interface RunEvents {

    /** Streamed text as it arrives, for channels that show progress. Not a reply by itself. */
    default void delta(String text) {
    }

    /** A complete reply to deliver to the user (chunked to the platform's limit by the outbox). */
    void reply(String text);

    /**
     * A complete reply that also answers steers: the model saw each of {@code answeredSteers} before
     * it wrote {@code text}. Once the reply is delivered they count as answered, like the run's own
     * messages, even if the run goes on with more model calls: a crash after that never runs them
     * again. A steer never reported here is ended by the run's outcome (its unseen steers). The
     * default ignores the steers, which is right for an agent that cannot steer.
     */
    default void reply(String text, List<SteerMessage> answeredSteers) {
        reply(text);
    }

    /** A tool step started or ended, for progress display and logs. */
    default void toolStep(String tool, String status) {
    }

    /** The agent is retrying a model call (429, 5xx) within this run; counted for operators. */
    default void retrying(String reason) {
    }

    /** True once the run was aborted; an agent may poll it to stop early. */
    default boolean aborted() {
        return false;
    }
}
