package dev.laneway.bench;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueOverride;
import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Retained heap, from {@code MemoryMXBean} after {@code System.gc()}, of one gateway taken through
 * the life of N sessions. Every message is created fresh and dropped by the harness, so whatever
 * the engine keeps shows up. Steps, each measured against the one before:
 * <ol>
 *   <li>every session runs one message and goes idle (an idle session retires from the engine);</li>
 *   <li>every session stores a {@code /queue} override (what an idle session can leave behind);</li>
 *   <li>every session has a run held open (an active session, no queue);</li>
 *   <li>every active session gets one more message, which queues (one queued item);</li>
 *   <li>the runs are released and everything drains (what the peak leaves behind);</li>
 *   <li>every session runs one message carrying a platform message id (dedupe remembers it).</li>
 * </ol>
 * Runs in the calling JVM, which needs a heap of several GB for a million sessions.
 */
final class HeapFootprint {

    /** One measured step: bytes retained per unit ({@code per}) at a session count. */
    record Row(String what, int sessions, double bytesPer, String per) {
    }

    private static final int WINDOW = 10_000;

    private final int sessions;
    private final AtomicLong settled = new AtomicLong();
    private volatile Semaphore window = new Semaphore(WINDOW);
    private final BenchGateway bench;
    private final List<Row> rows = new ArrayList<>();
    private long before;

    private HeapFootprint(int sessions, BenchGateway.Options options) {
        this.sessions = sessions;
        this.bench = new BenchGateway(options
                .mode(QueueMode.COLLECT)
                .heldCapacity(sessions)
                .listener((message, disposition) -> {
                    settled.incrementAndGet();
                    window.release();
                }));
    }

    static List<Row> measure(int sessions) throws InterruptedException {
        HeapFootprint footprint = new HeapFootprint(sessions, new BenchGateway.Options());
        try {
            return footprint.run();
        } finally {
            footprint.bench.close();
        }
    }

    /**
     * What an idle session leaves behind on a channel with a typing indicator: the session's typing
     * refresh timer is cancelled when it goes idle, but the production scheduler keeps a cancelled
     * timer queued (and the session queue its task refers to reachable) until it would have fired.
     * Measured with a 60 s refresh so none fires during the measurement; with Telegram's 5 s the
     * same bytes are held for 5 s after each run. With {@code removing}, the scheduler drops
     * cancelled timers at once (the one-line fix), for contrast.
     */
    static Row typingTimers(int sessions, boolean removing) throws InterruptedException {
        HeapFootprint footprint = new HeapFootprint(sessions, new BenchGateway.Options()
                .typing(Duration.ofSeconds(60))
                .removingScheduler(removing));
        try {
            footprint.before = usedAfterGc();
            footprint.runEachOnce(false);
            footprint.record(removing
                    ? "idle session after a run, typing channel, timer queue that drops cancelled timers"
                    : "idle session after a run, typing channel, until its cancelled typing timer is due", "session");
            return footprint.rows.get(0);
        } finally {
            footprint.bench.close();
        }
    }

    /** Reference: the size of one of the benchmark's inbound messages on its own. */
    static Row messageSize(int count) {
        InboundMessage[] kept = new InboundMessage[count];
        long withArray = usedAfterGc();
        for (int i = 0; i < count; i++) {
            kept[i] = BenchSessions.message(i);
        }
        long filled = usedAfterGc();
        Reference.reachabilityFence(kept);
        return new Row("one inbound message of this benchmark, for reference", count,
                (double) (filled - withArray) / count, "message");
    }

    private List<Row> run() throws InterruptedException {
        before = usedAfterGc();
        runEachOnce(false);
        record("idle session after a run", "session");

        for (int i = 0; i < sessions; i++) {
            bench.gateway.setSessionOverride(BenchSessions.key(i), QueueOverride.mode(QueueMode.FOLLOWUP));
        }
        record("idle session with a stored /queue override", "session");
        for (int i = 0; i < sessions; i++) {
            bench.gateway.setSessionOverride(BenchSessions.key(i), QueueOverride.NONE);
        }
        long beforeActive = usedAfterGc();
        before = beforeActive;

        bench.agent.hold();
        long expected = settled.get();
        for (int i = 0; i < sessions; i++) {
            bench.gateway.accept(BenchSessions.message(i));
        }
        while (bench.agent.heldStarts() < sessions) {
            LockSupport.parkNanos(1_000_000);
        }
        record("active session (run held open, nothing queued)", "session");

        for (int i = 0; i < sessions; i++) {
            bench.gateway.accept(BenchSessions.message(i));
        }
        record("queued item (collect mode, message included)", "item");

        bench.agent.releaseAll();
        awaitSettled(expected + 2L * sessions);
        long afterPeak = usedAfterGc();
        rows.add(new Row("left behind once the active peak drained", sessions,
                (double) (afterPeak - beforeActive) / sessions, "session"));
        before = afterPeak;

        runEachOnce(true);
        record("message remembered by dedupe (window " + bench.gateway.settings().dedupeWindow().toMinutes()
                + " min)", "message");
        return rows;
    }

    /** One fresh message to every session, at most {@link #WINDOW} in flight; waits until all ran. */
    private void runEachOnce(boolean withPlatformIds) throws InterruptedException {
        long expected = settled.get() + sessions;
        Semaphore permits = new Semaphore(WINDOW);
        window = permits;
        for (int i = 0; i < sessions; i++) {
            permits.acquire();
            bench.gateway.accept(BenchSessions.message(i, withPlatformIds ? "m" + i : null));
        }
        awaitSettled(expected);
    }

    private void awaitSettled(long expected) throws InterruptedException {
        while (settled.get() < expected) {
            Thread.sleep(1);
        }
        if (!bench.gateway.awaitIdle(Duration.ofSeconds(60))) {
            throw new IllegalStateException("the gateway did not go idle");
        }
    }

    private void record(String what, String per) {
        long now = usedAfterGc();
        rows.add(new Row(what, sessions, (double) (now - before) / sessions, per));
        before = now;
    }

    static long usedAfterGc() {
        var memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
