package dev.laneway.bench;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Draining one deep followup queue, at two depths side by side: two gateways, each with a single
 * session that holds a run with {@link #SHALLOW} or {@link #DEEP} followups queued behind it (the
 * cap is above that). Each invocation drains {@link #DRAINED} messages from one, then as many from
 * the other (each message ends in a run of its own, and the next run is held again), timing each
 * drain; the untimed setup first tops both queues up by as many, so every drain happens at the same
 * depth. The two depths are measured in the same iterations, alternately, because on a small shared
 * machine the rate of this chain of hand-offs flips between regimes (about 5× apart) within one
 * fork: measured one after the other, the two depths could each land in a different regime. The
 * primary score counts both drains; {@link Timing} keeps each depth's messages and nanoseconds, from
 * which the table computes the two rates per iteration. Taking the next turn off the queue should
 * cost the same at any depth, so both rates should be alike.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class FollowupDepthBenchmark {

    /** Messages (= runs) that end in one drain. */
    static final int DRAINED = 10_000;
    static final int SHALLOW = 10_000;
    static final int DEEP = 1_000_000;

    /** One gateway whose single session holds a run with {@code depth} followups behind it. */
    static final class Queue {
        final BenchGateway bench;
        private final InboundMessage message = BenchSessions.message(0);
        private final AtomicReference<Disposition> unexpected = new AtomicReference<>();
        private volatile CountDownLatch settled = new CountDownLatch(0);

        Queue(int depth) {
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

        void topUp() {
            for (int i = 0; i < DRAINED; i++) {
                bench.gateway.accept(message);
            }
            settled = new CountDownLatch(DRAINED);
        }

        /** Releases the held run and waits until {@link #DRAINED} messages ended and the next run is held. */
        void drain() throws InterruptedException {
            int held = bench.agent.heldStarts();
            bench.agent.releaseAndPass(DRAINED - 1);
            settled.await();
            awaitHeld(held + 1); // the run after the drained ones is held: the queue is at rest again
        }

        void close() {
            bench.abandon();
            if (unexpected.get() != null) {
                throw new IllegalStateException("a benchmark message ended as " + unexpected.get());
            }
        }

        private void awaitHeld(int count) {
            while (bench.agent.heldStarts() < count) {
                LockSupport.parkNanos(10_000);
            }
        }
    }

    @State(Scope.Benchmark)
    public static class Depths {
        Queue shallow;
        Queue deep;
        boolean deepFirst;

        @Setup(Level.Trial)
        public void fill() {
            shallow = new Queue(SHALLOW);
            deep = new Queue(DEEP);
            // The queues built here are setup, not the drain: without this, the young collections
            // during the first measured iterations copy the million queued items out of the young
            // generation (hundreds of ms each on a 2-core machine), a cost charged to whichever
            // drain they interrupt. Collected now, they sit in the old generation, as a long
            // queue's would; items topped up later are collected during the measurement.
            System.gc();
        }

        @Setup(Level.Invocation)
        public void topUp() {
            shallow.topUp();
            deep.topUp();
        }

        @TearDown(Level.Trial)
        public void close() {
            shallow.close();
            deep.close();
        }
    }

    /** Each depth's messages ended and the nanoseconds its drains took, summed over an iteration. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Timing {
        public long shallowMessages;
        public long shallowNanos;
        public long deepMessages;
        public long deepNanos;

        @Setup(Level.Iteration)
        public void reset() {
            shallowMessages = 0;
            shallowNanos = 0;
            deepMessages = 0;
            deepNanos = 0;
        }
    }

    @Benchmark
    @OperationsPerInvocation(2 * DRAINED)
    public void drain(Depths depths, Timing timing) throws InterruptedException {
        // alternate which depth goes first, so neither always follows the other's drain
        boolean deepFirst = depths.deepFirst;
        depths.deepFirst = !deepFirst;
        if (deepFirst) {
            timeDeep(depths, timing);
            timeShallow(depths, timing);
        } else {
            timeShallow(depths, timing);
            timeDeep(depths, timing);
        }
    }

    private static void timeShallow(Depths depths, Timing timing) throws InterruptedException {
        long start = System.nanoTime();
        depths.shallow.drain();
        timing.shallowNanos += System.nanoTime() - start;
        timing.shallowMessages += DRAINED;
    }

    private static void timeDeep(Depths depths, Timing timing) throws InterruptedException {
        long start = System.nanoTime();
        depths.deep.drain();
        timing.deepNanos += System.nanoTime() - start;
        timing.deepMessages += DRAINED;
    }
}
