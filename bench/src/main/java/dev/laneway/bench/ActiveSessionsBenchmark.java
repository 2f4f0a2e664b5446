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
 * Accepted messages per second into active sessions (the queueing path): 10,000 sessions each
 * have a run held open, and each invocation sends every session 20 more messages (the default
 * cap, so nothing is dropped), interleaved. Every invocation starts from a fresh gateway, so the
 * queues stay as deep as a real one gets. {@code Gateway.accept} returns once the message is in
 * its session's queue: it hands nothing to an executor, so the measured work is all of it (the
 * drain is {@link DrainBenchmark}).
 *
 * <p>The baseline, {@link BareQueues}, does the same append with nothing else: per session a lock
 * and an {@code ArrayDeque}, also fresh for every invocation. Both discard their queues between
 * invocations, outside the measurement, without doing any of the measured work there.
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
        InboundMessage[] messages;
        BareQueues queues;
        long refused;

        @Setup(Level.Trial)
        public void messages() {
            messages = BenchSessions.messages(SESSIONS);
        }

        @Setup(Level.Invocation)
        public void activate() {
            BenchGateway.Options options = new BenchGateway.Options();
            queues = new BareQueues(BenchGateway.settings(options).sessionScope(), options.cap, messages);
        }

        @TearDown(Level.Invocation)
        public void drop() {
            queues = null;
            if (refused != 0) {
                throw new IllegalStateException(refused + " messages found their bare queue full");
            }
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void laneway(Engine state) {
        state.active.queue(PER_SESSION);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void bareQueue(Bare state) {
        BareQueues queues = state.queues;
        InboundMessage[] messages = state.messages;
        int refused = 0;
        for (int round = 0; round < PER_SESSION; round++) {
            for (InboundMessage message : messages) {
                if (!queues.offer(message)) {
                    refused++;
                }
            }
        }
        state.refused += refused;
    }
}
