package dev.laneway.bench;

/**
 * What a benchmark observes of a run: the agent started it, and its message was settled. Both are
 * called from the engine's (or the baseline's) executor threads and must not block.
 */
interface RunHooks {

    RunHooks NONE = new RunHooks() {
        @Override
        public void started(int session) {
        }

        @Override
        public void finished(int session) {
        }
    };

    /** The agent was started for a message of session {@code session}. */
    void started(int session);

    /** The message of session {@code session} ended (its disposition was recorded). */
    void finished(int session);
}
