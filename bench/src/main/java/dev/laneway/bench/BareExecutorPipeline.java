package dev.laneway.bench;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The baseline: the executor hand-offs the engine makes for one message to an idle session, and
 * nothing else. The engine hands off three times per run (start the agent, handle its completion,
 * the outbox task that records the message as answered); so does this, in the same order,
 * reporting the same events.
 * No session state, no lanes, no queue: what a gateway without Laneway's guarantees would cost.
 */
final class BareExecutorPipeline implements Pipeline {

    private static final Runnable RECORD_ANSWERED = () -> { };

    private final ExecutorService executor;
    private final RunHooks hooks;

    BareExecutorPipeline(ExecutorService executor, RunHooks hooks) {
        this.executor = executor;
        this.hooks = hooks;
    }

    @Override
    public void accept(int session) {
        executor.execute(() -> launch(session));
    }

    private void launch(int session) {
        hooks.started(session);
        executor.execute(() -> finish(session));
    }

    private void finish(int session) {
        hooks.finished(session);
        executor.execute(RECORD_ANSWERED);
    }

    @Override
    public void close() {
        executor.shutdown();
        try {
            executor.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
