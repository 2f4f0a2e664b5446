package dev.laneway.bench;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * A fresh gateway whose sessions are all active: each has a run the agent holds open, so further
 * messages take the queueing path. Counts settled messages, so a benchmark can wait for a drain,
 * and remembers any disposition the mode does not explain (a refusal would mean the benchmark
 * measured the wrong path): in collect mode the held runs end as run and the queued messages as
 * collected; in followup mode every message ends as run.
 */
final class ActiveSessions implements AutoCloseable {

    final BenchGateway bench;
    final InboundMessage[] messages;
    private final AtomicReference<Disposition> unexpected = new AtomicReference<>();
    private volatile CountDownLatch settled = new CountDownLatch(0);

    ActiveSessions(QueueMode mode, InboundMessage[] messages) {
        this.messages = messages;
        boolean collect = mode == QueueMode.COLLECT;
        this.bench = new BenchGateway(new BenchGateway.Options()
                .mode(mode)
                .heldCapacity(messages.length)
                .listener((message, disposition) -> {
                    if (disposition != Disposition.RAN && !(collect && disposition == Disposition.COLLECTED)) {
                        unexpected.compareAndSet(null, disposition);
                    }
                    settled.countDown();
                }));
        bench.agent.hold();
        for (InboundMessage message : messages) {
            bench.gateway.accept(message);
        }
        while (bench.agent.heldStarts() < messages.length) {
            LockSupport.parkNanos(100_000);
        }
    }

    /** Sends {@code rounds} more messages to every session, round-robin, as chats interleave. */
    void queue(int rounds) {
        for (int round = 0; round < rounds; round++) {
            for (InboundMessage message : messages) {
                bench.gateway.accept(message);
            }
        }
    }

    /** From now on, waits for {@code count} messages to settle. */
    void expectSettled(int count) {
        settled = new CountDownLatch(count);
    }

    void awaitSettled() throws InterruptedException {
        settled.await();
    }

    /** Fails if any message ended other than as the mode explains. */
    void check() {
        if (unexpected.get() != null) {
            throw new IllegalStateException("a benchmark message ended as " + unexpected.get());
        }
    }

    /** Drops the gateway without draining (its queues are garbage from here on). */
    @Override
    public void close() {
        check();
        bench.abandon();
    }
}
