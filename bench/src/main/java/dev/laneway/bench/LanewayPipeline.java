package dev.laneway.bench;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The engine as a {@link Pipeline}: {@code accept} is {@code Gateway.accept}. Every message must
 * end as run; anything else (a rejection would mean the benchmark measured a refusal) fails the
 * benchmark when the pipeline is closed.
 */
final class LanewayPipeline implements Pipeline {

    private final BenchGateway bench;
    private final InboundMessage[] messages;
    private final AtomicReference<Disposition> unexpected = new AtomicReference<>();

    private LanewayPipeline(int sessions, RunHooks hooks, BenchGateway.Options options) {
        this.messages = BenchSessions.messages(sessions);
        this.bench = new BenchGateway(options
                .hooks(hooks)
                .listener((message, disposition) -> {
                    if (disposition == Disposition.RAN || disposition == Disposition.COLLECTED) {
                        hooks.finished(BenchSessions.index(message.senderId()));
                    } else {
                        unexpected.compareAndSet(null, disposition);
                    }
                }));
    }

    static LanewayPipeline create(int sessions, RunHooks hooks, BenchGateway.Options options) {
        return new LanewayPipeline(sessions, hooks, options);
    }

    @Override
    public void accept(int session) {
        bench.gateway.accept(messages[session]);
    }

    @Override
    public void close() {
        bench.close();
        if (unexpected.get() != null) {
            throw new IllegalStateException("a benchmark message ended as " + unexpected.get());
        }
    }
}
