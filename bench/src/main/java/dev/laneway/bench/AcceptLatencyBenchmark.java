package dev.laneway.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Latency from {@code accept} to the agent's {@code start} for a message to an idle session
 * (JMH samples each operation: percentiles come from the sampled distribution). One message is
 * in flight from the benchmark's side at a time; the previous run may still be finishing on the
 * other core, as it would be in production. Sessions rotate over 1,000 chats, so each is idle.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class AcceptLatencyBenchmark {

    @State(Scope.Benchmark)
    public static class Pipelines {
        @Param({"laneway", "bare-virtual", "bare-fixed"})
        public String system;

        static final int SESSIONS = 1000;

        SessionWindow window;
        Pipeline target;

        @Setup(Level.Trial)
        public void open() {
            window = new SessionWindow(SESSIONS);
            target = Pipeline.create(system, SESSIONS, window);
        }

        @TearDown(Level.Trial)
        public void close() {
            window.awaitAllFinished();
            target.close();
        }
    }

    @Benchmark
    public void acceptToStart(Pipelines state) {
        int session = state.window.nextIdleSession();
        long target = state.window.starts() + 1;
        state.target.accept(session);
        state.window.awaitStarts(target);
    }
}
