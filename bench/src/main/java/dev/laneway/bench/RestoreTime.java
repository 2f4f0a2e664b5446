package dev.laneway.bench;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.SessionScope;
import dev.laneway.core.store.JournalEntry;
import dev.laneway.store.SqliteStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;

/**
 * How long a start-up takes to restore N queued items (100,000 by default) from the SQLite store.
 *
 * <p>Population (not timed): the journal gets N pending entries, appended directly as
 * {@code Gateway.accept} would write them (same sequence numbering, session key, text and resolved
 * settings; followup mode; each with a platform message id and received just now, so none is older
 * than the queue TTL). They rotate over 10,000 sessions, 10 each, interleaved in arrival order: the
 * backlog a restart finds when every session had a run in flight and more messages queued behind
 * it. Then the store is closed (which checkpoints the WAL into the database).
 *
 * <p>Each timed restart, in this JVM: {@code SqliteStore.open(dir)} (schema check, the dedupe keys
 * of the pending entries, the last sequence number), then building a {@code Gateway} on it and
 * {@code gateway.start()}, which reads every pending entry and re-queues it, until the agent has
 * started a run in every session (the restored backlog is being worked on again; the gateway
 * counts N pending messages, checked). In practice {@code start} has started those runs by the
 * time it returns, so the restore phase ends with it. The agent holds every run open, so nothing
 * settles and the store still holds the same N entries for the next restart. Afterwards the
 * gateway is dropped without draining and the store closed. A warmup restart first (reported on
 * its own: the restore code is not yet compiled then, as in a real start-up); the rest are
 * reported as median and range.
 */
final class RestoreTime {

    static final int SESSIONS = 10_000;
    private static final long GIVE_UP_NANOS = 60_000_000_000L;

    /**
     * The measured restarts, each phase in milliseconds and sorted: {@code open} the store,
     * {@code restore} (build + start until a run has started in every session).
     */
    record Result(int items, int sessions, double populateMillis, long storeBytes, double[] open, double[] restore,
                  double[] total, double firstOpen, double firstRestore) {
    }

    private record Restart(double open, double restore) {
    }

    private RestoreTime() {
    }

    static Result measure(int items, int warmups, int restarts) throws IOException {
        int sessions = Math.min(SESSIONS, items);
        Path dir = DataDirs.create("laneway-bench-restore-");
        try {
            double populate = populate(dir, items, sessions);
            long bytes = DataDirs.size(dir);
            Restart first = null;
            for (int i = 0; i < warmups; i++) {
                Restart r = restart(dir, items, sessions);
                System.out.printf("# restore: warmup restart %d of %d: open %.1f ms, restore %.1f ms%n", i + 1, warmups,
                        r.open(), r.restore());
                first = first == null ? r : first;
            }
            double[] open = new double[restarts];
            double[] restore = new double[restarts];
            double[] total = new double[restarts];
            for (int i = 0; i < restarts; i++) {
                Restart r = restart(dir, items, sessions);
                System.out.printf("# restore: restart %d of %d: open %.1f ms, restore %.1f ms%n", i + 1, restarts,
                        r.open(), r.restore());
                open[i] = r.open();
                restore[i] = r.restore();
                total[i] = r.open() + r.restore();
            }
            Arrays.sort(open);
            Arrays.sort(restore);
            Arrays.sort(total);
            return new Result(items, sessions, populate, bytes, open, restore, total,
                    first == null ? Double.NaN : first.open(), first == null ? Double.NaN : first.restore());
        } finally {
            DataDirs.delete(dir);
        }
    }

    private static BenchGateway.Options options(int sessions) {
        return new BenchGateway.Options().mode(QueueMode.FOLLOWUP).heldCapacity(sessions);
    }

    /** Appends the backlog as the gateway would have journaled it; returns the milliseconds it took. */
    private static double populate(Path dir, int items, int sessions) {
        System.out.printf("# restore: journaling %,d queued items in %,d sessions%n", items, sessions);
        BenchGateway.Options shape = options(sessions);
        QueueSettings queue = BenchGateway.queueSettings(shape);
        SessionScope scope = BenchGateway.settings(shape).sessionScope();
        Instant now = Instant.now();
        long start = System.nanoTime();
        try (SqliteStore store = SqliteStore.open(dir)) {
            long seq = store.lastSequence();
            CompletableFuture<?>[] appended = new CompletableFuture<?>[items];
            for (int i = 0; i < items; i++) {
                InboundMessage message = BenchSessions.message(i % sessions, "r" + i, now);
                JournalEntry entry = new JournalEntry(++seq, scope.keyOf(message).value(), message, message.text(),
                        queue, false);
                appended[i] = store.append(entry);
            }
            CompletableFuture.allOf(appended).join();
        }
        return (System.nanoTime() - start) / 1e6;
    }

    private static Restart restart(Path dir, int items, int sessions) {
        System.gc();
        long t0 = System.nanoTime();
        SqliteStore store = SqliteStore.open(dir);
        long t1 = System.nanoTime();
        BenchGateway bench = null;
        try {
            bench = new BenchGateway(options(sessions).store(store).journal(store));
            bench.agent.hold();
            bench.gateway.start();
            long t2 = System.nanoTime();
            while (bench.agent.heldStarts() < sessions) {
                if (System.nanoTime() - t2 > GIVE_UP_NANOS) {
                    throw new IllegalStateException("gave up waiting 60 s for restored runs to start: "
                            + bench.agent.heldStarts() + " of " + sessions);
                }
                LockSupport.parkNanos(100_000);
            }
            long t3 = System.nanoTime();
            int pending = bench.gateway.pendingMessages();
            if (pending != items) {
                throw new IllegalStateException("restored " + pending + " messages, expected " + items);
            }
            return new Restart((t1 - t0) / 1e6, (t3 - t1) / 1e6);
        } finally {
            if (bench != null) {
                bench.abandon();
            }
            store.close();
        }
    }
}
