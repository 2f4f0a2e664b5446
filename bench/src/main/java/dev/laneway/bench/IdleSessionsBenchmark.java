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
 * Accepted messages per second into idle sessions: every message starts a run. One message per
 * session is in flight at a time ({@link SessionWindow}), so the session is idle when its next
 * message arrives, and in steady state this is also runs started and finished per second. With
 * one session it is the round trip of a single chat; with 10,000 the engine is kept busy.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class IdleSessionsBenchmark {

    /**
     * The engine and the bare-executor baselines, side by side. JMH varies the alphabetically
     * last parameter fastest, so the three systems run back to back for each session count.
     */
    @State(Scope.Benchmark)
    public static class Pipelines {
        @Param({"laneway", "bare-virtual", "bare-fixed"})
        public String system;

        @Param({"1", "100", "10000"})
        public int sessions;

        SessionWindow window;
        Pipeline target;

        @Setup(Level.Trial)
        public void open() {
            window = new SessionWindow(sessions);
            target = Pipeline.create(system, sessions, window);
        }

        @TearDown(Level.Trial)
        public void close() {
            window.awaitAllFinished();
            target.close();
        }
    }

    /** The engine in other realistic wirings, at 10,000 sessions. */
    @State(Scope.Benchmark)
    public static class Variants {
        @Param({"laneway-typing", "laneway-main4"})
        public String system;

        @Param({"10000"})
        public int sessions;

        SessionWindow window;
        Pipeline target;

        @Setup(Level.Trial)
        public void open() {
            window = new SessionWindow(sessions);
            target = Pipeline.create(system, sessions, window);
        }

        @TearDown(Level.Trial)
        public void close() {
            window.awaitAllFinished();
            target.close();
        }
    }

    @Benchmark
    public void accept(Pipelines state) {
        state.target.accept(state.window.nextIdleSession());
    }

    @Benchmark
    public void acceptVariant(Variants state) {
        state.target.accept(state.window.nextIdleSession());
    }
}
