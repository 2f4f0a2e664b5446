package dev.laneway.bench;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Accepted messages per second into active sessions (the queueing path): 10,000 sessions each
 * have a run held open, and each invocation sends every session 20 more messages (the default
 * cap, so nothing is dropped), interleaved. Every invocation starts from a fresh gateway, so the
 * queues stay as deep as a real one gets.
 *
 * <p>The baseline hands each message to a bare executor as a task, as a gateway without a session
 * queue would. In both cases accept returns once the message is handed over; the baseline's tasks
 * are allowed to finish between invocations, outside the measurement.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ActiveSessionsBenchmark {

    static final int SESSIONS = 10_000;
    static final int PER_SESSION = 20;
    static final int BATCH = SESSIONS * PER_SESSION;

    @State(Scope.Benchmark)
    public static class Engine {
        @Param({"collect", "followup"})
        public String mode;

        InboundMessage[] messages;
        ActiveSessions active;

        @Setup(Level.Trial)
        public void messages() {
            messages = BenchSessions.messages(SESSIONS);
        }

        @Setup(Level.Invocation)
        public void activate() {
            active = new ActiveSessions(QueueMode.parse(mode).orElseThrow(), messages);
        }

        @TearDown(Level.Invocation)
        public void drop() {
            active.close();
            active = null;
        }
    }

    @State(Scope.Benchmark)
    public static class Bare {
        @Param({"bare-virtual", "bare-fixed"})
        public String executor;

        ExecutorService pool;
        final LongAdder done = new LongAdder();
        long submitted;
        Runnable task;

        @Setup(Level.Trial)
        public void open() {
            pool = executor.equals("bare-virtual")
                    ? Executors.newVirtualThreadPerTaskExecutor()
                    : Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors());
            task = done::increment;
        }

        @TearDown(Level.Invocation)
        public void settle() {
            while (done.sum() < submitted) {
                LockSupport.parkNanos(100_000);
            }
        }

        @TearDown(Level.Trial)
        public void close() throws InterruptedException {
            pool.shutdown();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void laneway(Engine state) {
        state.active.queue(PER_SESSION);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void bareExecutor(Bare state) {
        ExecutorService pool = state.pool;
        Runnable task = state.task;
        for (int i = 0; i < BATCH; i++) {
            pool.execute(task);
        }
        state.submitted += BATCH;
    }
}
