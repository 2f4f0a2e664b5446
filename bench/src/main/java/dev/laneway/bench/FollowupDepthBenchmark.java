package dev.laneway.bench;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
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
 * Draining one deep followup queue: a single session holds a run with {@link Deep#depth} followups
 * queued behind it (10,000 or 1,000,000; the cap is above that). The measured operation releases
 * the held run and waits until {@link #DRAINED} messages have ended, each in a run of its own, and
 * the next run is held again; the untimed setup first tops the queue up by as many, so every
 * invocation drains at the same depth. One operation is one message ended. Taking the next turn
 * off the queue should cost the same at any depth, so both rates should be alike.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class FollowupDepthBenchmark {

    /** Messages (= runs) that end in one invocation. */
    static final int DRAINED = 10_000;

    @State(Scope.Benchmark)
    public static class Deep {
        @Param({"10000", "1000000"})
        public int depth;

        BenchGateway bench;
        InboundMessage message;
        private final AtomicReference<Disposition> unexpected = new AtomicReference<>();
        private volatile CountDownLatch settled = new CountDownLatch(0);

        @Setup(Level.Trial)
        public void fill() {
            message = BenchSessions.message(0);
            bench = new BenchGateway(new BenchGateway.Options()
                    .mode(QueueMode.FOLLOWUP)
                    .cap(depth + DRAINED + 1)
                    .listener((ended, disposition) -> {
                        if (disposition != Disposition.RAN) {
                            unexpected.compareAndSet(null, disposition);
                        }
                        settled.countDown();
                    }));
            bench.agent.hold();
            bench.gateway.accept(message);
            awaitHeld(1);
            for (int i = 0; i < depth; i++) {
                bench.gateway.accept(message);
            }
        }

        @Setup(Level.Invocation)
        public void topUp() {
            for (int i = 0; i < DRAINED; i++) {
                bench.gateway.accept(message);
            }
            settled = new CountDownLatch(DRAINED);
        }

        @TearDown(Level.Trial)
        public void close() {
            bench.abandon();
            if (unexpected.get() != null) {
                throw new IllegalStateException("a benchmark message ended as " + unexpected.get());
            }
        }

        void awaitHeld(int count) {
            while (bench.agent.heldStarts() < count) {
                LockSupport.parkNanos(10_000);
            }
        }
    }

    @Benchmark
    @OperationsPerInvocation(DRAINED)
    public void drain(Deep state) throws InterruptedException {
        int held = state.bench.agent.heldStarts();
        state.bench.agent.releaseAndPass(DRAINED - 1);
        state.settled.await();
        state.awaitHeld(held + 1); // the run after the drained ones is held: the queue is at rest again
    }
}
