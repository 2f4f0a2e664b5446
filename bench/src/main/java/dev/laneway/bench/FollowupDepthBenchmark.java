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
import org.openjdk.jmh.annotations.Param;
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
 *
 * <p>{@link Depths#chat}: {@code dm} (the default, the table's row) queues one sender's DMs;
 * {@code group} (run with {@code -p chat=group}) queues a group chat's messages from
 * {@link #GROUP_SENDERS} senders in turn, so the drains go through the group queue's rotation of
 * senders (docs/behaviour.md §5.3) instead of the DM queue's arrival order.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class FollowupDepthBenchmark {

    /** Messages (= runs) that end in one drain. */
    static final int DRAINED = 10_000;
    static final int SHALLOW = 10_000;
    static final int DEEP = 1_000_000;
    /** Senders of the {@code group} variant's messages. */
    static final int GROUP_SENDERS = 10;

    /** One gateway whose single session holds a run with {@code depth} followups behind it. */
    static final class Queue {
        final BenchGateway bench;
        private final InboundMessage[] messages;
        private int next;
        private final AtomicReference<Disposition> unexpected = new AtomicReference<>();
        private volatile CountDownLatch settled = new CountDownLatch(0);

        Queue(int depth, boolean group) {
            messages = group ? groupMessages() : new InboundMessage[] {BenchSessions.message(0)};
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
            accept();
            awaitHeld(1);
            for (int i = 0; i < depth; i++) {
                accept();
            }
        }

        /** One group chat's messages from {@link #GROUP_SENDERS} senders. */
        private static InboundMessage[] groupMessages() {
            InboundMessage[] group = new InboundMessage[GROUP_SENDERS];
            for (int i = 0; i < GROUP_SENDERS; i++) {
                group[i] = InboundMessage.builder(BenchSessions.CHANNEL).chatId("g").senderId("u" + i)
                        .text("hello from " + i).direct(false).build();
            }
            return group;
        }

        /** Accepts the next message: the DM, or the next sender's group message. */
        private void accept() {
            bench.gateway.accept(messages[next]);
            next = (next + 1) % messages.length;
        }

        void topUp() {
            for (int i = 0; i < DRAINED; i++) {
                accept();
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
        /** {@code dm} or {@code group} (see the class comment). */
        @Param({"dm"})
        public String chat;

        Queue shallow;
        Queue deep;
        boolean deepFirst;

        @Setup(Level.Trial)
        public void fill() {
            boolean group = chat.equals("group");
            shallow = new Queue(SHALLOW, group);
            deep = new Queue(DEEP, group);
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
