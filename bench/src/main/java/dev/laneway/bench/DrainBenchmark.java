package dev.laneway.bench;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import java.util.concurrent.TimeUnit;
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
 * Queued messages drained per second: 10,000 active sessions hold 20 queued messages each; the
 * measured operation releases the held runs and waits until every message has ended. In collect
 * mode a session drains its 20 messages as one run; in followup mode as 20 runs in a row. Queue
 * debounce is 0, so this measures the engine, not the debounce timer.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class DrainBenchmark {

    static final int SESSIONS = 10_000;
    static final int PER_SESSION = 20;

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
        public void fill() {
            active = new ActiveSessions(QueueMode.parse(mode).orElseThrow(), messages);
            active.queue(PER_SESSION);
            active.expectSettled(SESSIONS * (PER_SESSION + 1));
        }

        @TearDown(Level.Invocation)
        public void close() {
            active.check();
            active.bench.close();
            active = null;
        }
    }

    @Benchmark
    @OperationsPerInvocation(SESSIONS * PER_SESSION)
    public void drain(Engine state) throws InterruptedException {
        state.active.bench.agent.releaseAll();
        state.active.awaitSettled();
    }
}
