package dev.laneway.bench;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import java.time.Duration;
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
 * Draining queues: 10,000 active sessions each have a held run and 20 messages queued behind it.
 * The measured operation releases the held runs and waits until every one of the 210,000 messages
 * (10,000 that were running, 200,000 queued) has ended and every session has gone idle again; one
 * operation is one message ended. In collect mode a session drains its 20 messages as one run; in
 * followup mode as 20 runs in a row ({@link #runsPerInvocation}). Queue debounce is 0, so this
 * measures the engine, not the debounce timer.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class DrainBenchmark {

    static final int SESSIONS = 10_000;
    static final int PER_SESSION = 20;
    /** Messages that end in one invocation: the held one and the queued ones, in every session. */
    static final int MESSAGES = SESSIONS * (PER_SESSION + 1);

    /** Runs that end in one invocation: the released ones, then the drain runs. */
    static int runsPerInvocation(QueueMode mode) {
        return SESSIONS + (mode == QueueMode.COLLECT ? SESSIONS : SESSIONS * PER_SESSION);
    }

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
            active.expectSettled(MESSAGES);
        }

        @TearDown(Level.Invocation)
        public void close() {
            active.check();
            active.bench.close();
            active = null;
        }
    }

    @Benchmark
    @OperationsPerInvocation(MESSAGES)
    public void drain(Engine state) throws InterruptedException {
        state.active.bench.agent.releaseAll();
        state.active.awaitSettled();
        if (!state.active.bench.gateway.awaitIdle(Duration.ofSeconds(30))) {
            throw new IllegalStateException("the gateway did not go idle within 30 s of draining");
        }
    }
}
