package dev.laneway.bench;

import dev.laneway.core.Route;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The baseline: the executor hand-offs the engine makes for one message to an idle session, and
 * nothing else. The engine hands off three times per run: a task starts the agent, which answers
 * at once; its answer goes to an outbox task (which sends it and records the message as answered)
 * and its completion to a task that ends the run. So does this, in the same order, reporting the
 * same events; its outbox task sends the same short answer ({@link BenchAgent#REPLY}) to the same
 * no-op channel. No session state, no lanes, no queue: what a gateway without Laneway's
 * guarantees would cost.
 */
final class BareExecutorPipeline implements Pipeline {

    private final ExecutorService executor;
    private final RunHooks hooks;
    private final NoopChannel channel = new NoopChannel(null);
    private final Route[] routes;

    BareExecutorPipeline(ExecutorService executor, int sessions, RunHooks hooks) {
        this.executor = executor;
        this.hooks = hooks;
        this.routes = new Route[sessions];
        for (int i = 0; i < sessions; i++) {
            routes[i] = BenchSessions.message(i).route();
        }
    }

    @Override
    public void accept(int session) {
        executor.execute(() -> launch(session));
    }

    private void launch(int session) {
        hooks.started(session);
        executor.execute(() -> answer(session));
        executor.execute(() -> finish(session));
    }

    /** The outbox's task: the answer goes to the channel, then the message is recorded answered (nowhere). */
    private void answer(int session) {
        channel.send(routes[session], BenchAgent.REPLY);
    }

    private void finish(int session) {
        hooks.finished(session);
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
