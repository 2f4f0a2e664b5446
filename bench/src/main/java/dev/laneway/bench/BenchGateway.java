package dev.laneway.bench;

import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.engine.DispositionListener;
import dev.laneway.core.engine.Gateway;
import dev.laneway.core.engine.GatewaySettings;
import dev.laneway.core.store.MessageJournal;
import dev.laneway.core.store.SessionStore;
import dev.laneway.core.time.SystemScheduler;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A gateway wired as production wires it (virtual-thread executor, system clock and scheduler)
 * around a no-op agent (answering a short text when asked) and a no-op channel, with the settings a benchmark needs: admission
 * disabled ({@code maxPendingRuns: 0}), no retries, queue debounce 0 so drains start at once, and
 * the given mode, cap and main lane cap. Owns its executor and scheduler; the store and journal
 * (default: in memory, nothing journaled) belong to the caller, who closes them after this.
 */
final class BenchGateway implements AutoCloseable {

    final Gateway gateway;
    final BenchAgent agent;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final SystemScheduler scheduler = new SystemScheduler();

    BenchGateway(Options options) {
        this.agent = new BenchAgent(options.hooks, options.heldCapacity, options.reply);
        this.gateway = Gateway.builder()
                .settings(settings(options))
                .scheduler(scheduler)
                .executor(executor)
                .agent(agent)
                .store(options.store)
                .journal(options.journal)
                .listener(options.listener)
                .channel(new NoopChannel(options.typingRefresh))
                .build();
    }

    /** The gateway settings for these options (also what a message's journal entry records). */
    static GatewaySettings settings(Options options) {
        return GatewaySettings.builder()
                .queueDefaults(queueSettings(options))
                .maxPendingRuns(0)
                .mainMaxConcurrent(options.mainCap)
                .failureRetries(0)
                .build();
    }

    /** The queue settings every message gets: no session overrides, no inline directives. */
    static QueueSettings queueSettings(Options options) {
        return new QueueSettings(options.mode, Duration.ZERO, options.cap, DropPolicy.NEW);
    }

    @Override
    public void close() {
        agent.releaseAll();
        try {
            gateway.awaitIdle(Duration.ofSeconds(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        executor.shutdown();
        try {
            executor.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        scheduler.close();
    }

    /** Drops the gateway with its held runs and queues, without draining them. */
    void abandon() {
        agent.forgetAll();
        executor.shutdownNow();
        scheduler.close();
    }

    /** How to build one; every field has the benchmark default. */
    static final class Options {
        RunHooks hooks = RunHooks.NONE;
        DispositionListener listener = DispositionListener.NONE;
        QueueMode mode = QueueMode.COLLECT;
        int cap = QueueSettings.DEFAULTS.cap();
        int mainCap = Integer.MAX_VALUE;
        int heldCapacity = 16;
        Duration typingRefresh;
        String reply;
        SessionStore store;
        MessageJournal journal = MessageJournal.NONE;

        Options hooks(RunHooks value) { hooks = value; return this; }
        Options listener(DispositionListener value) { listener = value; return this; }
        Options mode(QueueMode value) { mode = value; return this; }
        Options cap(int value) { cap = value; return this; }
        Options mainCap(int value) { mainCap = value; return this; }
        Options heldCapacity(int value) { heldCapacity = value; return this; }
        /** A channel with a typing indicator refreshed this often (null: none, the default). */
        Options typing(Duration refresh) { typingRefresh = refresh; return this; }
        /** Every run answers {@link BenchAgent#REPLY} before it completes, as a real run answers (default: nothing). */
        Options answering() { reply = BenchAgent.REPLY; return this; }
        /** The session store (null: the builder's in-memory one, the default). */
        Options store(SessionStore value) { store = value; return this; }
        /** Where accepted messages are journaled (default {@link MessageJournal#NONE}). */
        Options journal(MessageJournal value) { journal = value; return this; }
    }
}
