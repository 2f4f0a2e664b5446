package dev.laneway.bench;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueOverride;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.lang.ref.Reference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Retained heap, from {@code MemoryMXBean} after {@code System.gc()}, of one gateway taken through
 * the life of N sessions. Every message is created fresh and dropped by the harness, so whatever
 * the engine keeps shows up. The gateway has the in-memory session store and no journal, and its
 * messages carry no platform message id: what the durable store keeps (answered message keys,
 * pending entries) and what dedupe remembers are not part of these rows ({@link #dedupe} measures
 * dedupe on its own). Steps, each measured against the one before:
 * <ol>
 *   <li>every session runs one message and goes idle (an idle session retires from the engine);</li>
 *   <li>every session stores a {@code /queue} override (what an idle session can leave behind);</li>
 *   <li>every session has a run held open (an active session, no queue);</li>
 *   <li>every active session gets one more message, which queues (one queued item);</li>
 *   <li>the runs are released and everything drains (what the peak leaves behind).</li>
 * </ol>
 * Runs in the calling JVM, which needs a heap of several GB for a million sessions.
 */
final class HeapFootprint {

    /**
     * One measured step: bytes retained per unit ({@code per}) at a session count; {@code once} when
     * it does not depend on the session count and is measured once (the table repeats it).
     */
    record Row(String what, int sessions, double bytesPer, String per, boolean once) {

        Row(String what, int sessions, double bytesPer, String per) {
            this(what, sessions, bytesPer, per, false);
        }
    }

    // Row labels, shared with ReportTable so that a renamed row cannot silently empty a cell.
    static final String MESSAGE = "one inbound message of this benchmark, for reference";
    static final String IDLE = "idle session after a run";
    static final String OVERRIDE = "idle session with a stored /queue override";
    static final String ACTIVE = "active session (run held open, nothing queued)";
    static final String QUEUED = "queued item (collect mode, message included)";
    static final String AFTER_PEAK = "left behind once the active peak drained";
    static final String TYPING = "idle session after a run, channel with a typing indicator (its typing timer cancelled)";

    private static final int WINDOW = 10_000;

    private final int sessions;
    private final AtomicLong settled = new AtomicLong();
    private final AtomicLong duplicates = new AtomicLong();
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
                    if (disposition == Disposition.DUPLICATE) {
                        duplicates.incrementAndGet();
                    }
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
     * refresh timer is cancelled when it goes idle. Measured with a 60 s refresh, so no timer fires
     * during the measurement: a cancelled timer the scheduler still kept would show up here.
     */
    static Row typingTimers(int sessions) throws InterruptedException {
        HeapFootprint footprint = new HeapFootprint(sessions, new BenchGateway.Options().typing(Duration.ofSeconds(60)));
        try {
            footprint.before = usedAfterGc();
            footprint.runEach(sessions, false);
            footprint.record(TYPING, "session");
            return footprint.rows.get(0);
        } finally {
            footprint.bench.close();
        }
    }

    /**
     * What dedupe keeps per remembered platform message id, in a gateway of its own: {@link
     * #dedupeIds} sessions each run a message without an id (so whatever any run leaves behind is
     * in the baseline), then one with an id. Half the cache's bound at most, so none is forgotten
     * early (checked: the oldest id is still recognised as a duplicate afterwards). Measured once:
     * the cost is per id, whatever the number of sessions.
     */
    static Row dedupe() throws InterruptedException {
        int ids = dedupeIds();
        HeapFootprint footprint = new HeapFootprint(ids, new BenchGateway.Options());
        try {
            footprint.runEach(ids, false);
            footprint.before = usedAfterGc();
            footprint.runEach(ids, true);
            long now = usedAfterGc();
            footprint.checkOldestIdRemembered(ids);
            return new Row(dedupeLabel(footprint.bench.gateway.settings().dedupeWindow(), ids), ids,
                    (double) (now - footprint.before) / ids, "id", true);
        } finally {
            footprint.bench.close();
        }
    }

    /** The label of the dedupe row: the window, the ids measured and the cache's bound. */
    static String dedupeLabel(Duration window, int ids) {
        return String.format(Locale.ROOT, "platform message id remembered by dedupe (window %d min; %,d ids in a gateway"
                + " of their own; the cache keeps at most %,d, forgetting the oldest beyond)", window.toMinutes(), ids,
                dedupeCap());
    }

    /** How many ids the dedupe measurement sends: half the cache's bound. */
    static int dedupeIds() {
        return dedupeCap() / 2;
    }

    /**
     * gateway-core's {@code DedupeCache.MAX_ENTRIES}, read by reflection (the class is package
     * private). Beyond it the cache forgets the oldest ids, so a measurement with more ids would
     * measure evictions. A test in this module checks that the field can still be read.
     */
    static int dedupeCap() {
        try {
            Field field = Class.forName("dev.laneway.core.engine.DedupeCache").getDeclaredField("MAX_ENTRIES");
            field.setAccessible(true);
            return field.getInt(null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot read gateway-core's DedupeCache.MAX_ENTRIES (renamed or moved?);"
                    + " the dedupe heap row must stay below that bound", e);
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
        return new Row(MESSAGE, count,
                (double) (filled - withArray) / count, "message", true);
    }

    private List<Row> run() throws InterruptedException {
        before = usedAfterGc();
        runEach(sessions, false);
        record(IDLE, "session");

        for (int i = 0; i < sessions; i++) {
            bench.gateway.setSessionOverride(BenchSessions.key(i), QueueOverride.mode(QueueMode.FOLLOWUP));
        }
        record(OVERRIDE, "session");
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
        record(ACTIVE, "session");

        for (int i = 0; i < sessions; i++) {
            bench.gateway.accept(BenchSessions.message(i));
        }
        record(QUEUED, "item");

        bench.agent.releaseAll();
        awaitSettled(expected + 2L * sessions);
        long afterPeak = usedAfterGc();
        rows.add(new Row(AFTER_PEAK, sessions, (double) (afterPeak - beforeActive) / sessions, "session"));
        return rows;
    }

    /** One fresh message to each of the first {@code count} sessions, at most {@link #WINDOW} in flight; waits until all ran. */
    private void runEach(int count, boolean withPlatformIds) throws InterruptedException {
        long expected = settled.get() + count;
        Semaphore permits = new Semaphore(WINDOW);
        window = permits;
        for (int i = 0; i < count; i++) {
            permits.acquire();
            bench.gateway.accept(BenchSessions.message(i, withPlatformIds ? platformId(i) : null));
        }
        awaitSettled(expected);
    }

    private static String platformId(int session) {
        return "m" + session;
    }

    /**
     * Sends the first id of the dedupe step again: it must end as a duplicate. If the cache had
     * forgotten it, the dedupe row would have measured evictions, not remembered ids.
     */
    private void checkOldestIdRemembered(int ids) throws InterruptedException {
        long duplicatesBefore = duplicates.get();
        long expected = settled.get() + 1;
        bench.gateway.accept(BenchSessions.message(0, platformId(0)));
        awaitSettled(expected);
        if (duplicates.get() == duplicatesBefore) {
            throw new IllegalStateException("dedupe no longer recognised the oldest of " + ids
                    + " ids: the dedupe row measured evictions (is the cache's bound lower than " + dedupeCap() + "?)");
        }
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
