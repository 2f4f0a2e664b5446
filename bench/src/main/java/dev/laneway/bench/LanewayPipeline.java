package dev.laneway.bench;

import dev.laneway.core.InboundMessage;

/**
 * The engine as a {@link Pipeline}: {@code accept} is {@code Gateway.accept}. Every message goes to
 * an idle session and must end as run ({@link IdleRunCheck}); anything else fails the benchmark
 * when the pipeline is closed. The window hears of every ending, so a wrong one cannot stall it.
 */
final class LanewayPipeline implements Pipeline {

    private final BenchGateway bench;
    private final InboundMessage[] messages;
    private final IdleRunCheck check = new IdleRunCheck();

    private LanewayPipeline(int sessions, RunHooks hooks, BenchGateway.Options options) {
        this.messages = BenchSessions.messages(sessions);
        this.bench = new BenchGateway(options
                .hooks(hooks)
                .listener((message, disposition) -> {
                    check.record(disposition);
                    hooks.finished(BenchSessions.index(message.senderId()));
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
        check.verify();
    }
}
