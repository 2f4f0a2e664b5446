package dev.laneway.bench;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Something that takes a message for a session and, on other threads, starts a run for it and
 * finishes it: the Laneway engine, or a bare executor doing the same hand-offs (the baseline).
 */
interface Pipeline extends AutoCloseable {

    /** Hands over one message for {@code session}; returns at once. */
    void accept(int session);

    @Override
    void close();

    /**
     * Pipelines by name: {@code laneway} (the production wiring: virtual threads, system
     * scheduler, a no-op channel without typing, a main lane that never limits, an agent whose every
     * run answers a short text, as a real run does),
     * {@code laneway-typing} (a channel with a typing indicator, as Telegram, Discord and Slack
     * have), {@code laneway-main4} (the default main lane cap of 4), {@code bare-virtual} and
     * {@code bare-fixed} (the baseline on virtual threads, or on a fixed pool of one thread per core;
     * it sends the same short answer to a no-op channel).
     */
    static Pipeline create(String name, int sessions, RunHooks hooks) {
        return switch (name) {
            case "laneway" -> LanewayPipeline.create(sessions, hooks, new BenchGateway.Options().answering());
            case "laneway-typing" -> LanewayPipeline.create(sessions, hooks,
                    new BenchGateway.Options().answering().typing(NoopChannel.TELEGRAM_TYPING_REFRESH));
            case "laneway-main4" -> LanewayPipeline.create(sessions, hooks, new BenchGateway.Options().answering().mainCap(4));
            case "bare-virtual" -> new BareExecutorPipeline(Executors.newVirtualThreadPerTaskExecutor(), sessions, hooks);
            case "bare-fixed" -> new BareExecutorPipeline(fixedPool(), sessions, hooks);
            default -> throw new IllegalArgumentException("unknown pipeline " + name);
        };
    }

    private static ExecutorService fixedPool() {
        return Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors(), runnable -> {
            Thread thread = new Thread(runnable, "bare-fixed");
            thread.setDaemon(true);
            return thread;
        });
    }
}
