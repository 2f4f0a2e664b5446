package dev.laneway.core.agent;

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
