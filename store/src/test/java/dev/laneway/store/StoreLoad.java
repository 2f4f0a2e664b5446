package dev.laneway.store;

import dev.laneway.core.Attachment;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.store.InMemoryJournal;
import dev.laneway.core.store.JournalEntry;
import dev.laneway.core.store.MessageJournal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * A load measurement, not a test: accepted messages per second through the journal (the gateway's
 * accept path: append, then wait for the group commit), SQLite against the in-memory journal in the
 * same run, and the time to restore 100,000 pending entries at start-up.
 *
 * <pre>
 * scripts/mvn -q -f store/pom.xml test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java --enable-native-access=ALL-UNNAMED -cp store/target/classes:store/target/test-classes:$(cat store/target/cp.txt) \
 *     dev.laneway.store.StoreLoad [dataDir] [seconds per run]
 * </pre>
 * The data directory should be on the disk the gateway will use (not tmpfs: fsync is free there).
 */
public final class StoreLoad {

    private static final int RESTORE_ENTRIES = 100_000;

    private StoreLoad() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 ? args[0] : "target/store-load").toAbsolutePath();
        double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 3;
        System.out.printf(Locale.ROOT, "StoreLoad: %d cores, Java %s, SQLite store in %s, %.1f s per run%n",
                Runtime.getRuntime().availableProcessors(), Runtime.version(), root, seconds);
        System.out.println();
        System.out.println("accept path: each producer thread appends and waits for the commit, as the gateway does");
        System.out.printf(Locale.ROOT, "%-28s %8s %14s %12s %12s%n", "journal", "threads", "accepted/s", "commits/s",
                "per commit");
        for (int threads : new int[] {1, 8, 64}) {
            run("in-memory", threads, seconds, () -> new Subject(new InMemoryJournal(), () -> 0));
            for (StoreOptions.Synchronous sync : StoreOptions.Synchronous.values()) {
                Path dir = fresh(root.resolve("accept-" + sync + "-" + threads));
                run("sqlite synchronous=" + sync, threads, seconds, () -> {
                    SqliteStore store = SqliteStore.open(dir, StoreOptions.defaults().withSynchronous(sync));
                    return new Subject(store, store::commitCount);
                });
            }
        }
        System.out.println();
        burst(fresh(root.resolve("burst")));
        System.out.println();
        restore(fresh(root.resolve("restore")));
        delete(root);
    }

    private record Subject(MessageJournal journal, java.util.function.LongSupplier commits) { }

    private interface Opener {
        Subject open();
    }

    private static void run(String name, int threads, double seconds, Opener opener) throws Exception {
        Subject subject = opener.open();
        AtomicLong sequence = new AtomicLong();
        AtomicLong accepted = new AtomicLong();
        long warmupEnd = System.nanoTime() + 500_000_000L;
        long[] window = new long[2];
        CountDownLatch started = new CountDownLatch(threads);
        List<Thread> producers = new ArrayList<>();
        long end = warmupEnd + (long) (seconds * 1e9);
        for (int t = 0; t < threads; t++) {
            producers.add(Thread.ofPlatform().start(() -> {
                started.countDown();
                while (System.nanoTime() < end) {
                    long seq = sequence.incrementAndGet();
                    subject.journal().append(entry(seq)).join();
                    if (System.nanoTime() > warmupEnd) {
                        accepted.incrementAndGet();
                    }
                    subject.journal().settled(seq, true);
                }
            }));
        }
        started.await();
        while (System.nanoTime() < warmupEnd) {
            Thread.sleep(5);
        }
        long commitsBefore = subject.commits().getAsLong();
        window[0] = System.nanoTime();
        for (Thread producer : producers) {
            producer.join();
        }
        window[1] = System.nanoTime();
        long commits = subject.commits().getAsLong() - commitsBefore;
        subject.journal().close();
        double elapsed = (window[1] - window[0]) / 1e9;
        double perSecond = accepted.get() / elapsed;
        System.out.printf(Locale.ROOT, "%-28s %8d %14.0f %12s %12s%n", name, threads, perSecond,
                commits == 0 ? "-" : String.format(Locale.ROOT, "%.0f", commits / elapsed),
                commits == 0 ? "-" : String.format(Locale.ROOT, "%.1f", (double) accepted.get() / commits));
    }

    /** One thread queues a burst without waiting, then waits for all of it: the writer's ceiling. */
    private static void burst(Path dir) {
        int count = 100_000;
        try (SqliteStore store = SqliteStore.open(dir)) {
            List<CompletableFuture<Void>> futures = new ArrayList<>(count);
            long before = store.commitCount();
            long start = System.nanoTime();
            for (int i = 1; i <= count; i++) {
                futures.add(store.append(entry(i)));
            }
            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).join();
            double elapsed = (System.nanoTime() - start) / 1e9;
            System.out.printf(Locale.ROOT, "burst: %d appends queued at once, all durable after %.2f s = %.0f appends/s"
                    + " in %d commits (synchronous=FULL)%n", count, elapsed, count / elapsed, store.commitCount() - before);
        }
    }

    /** 100,000 pending entries: time to open the store (loads dedupe keys) and to read them back. */
    private static void restore(Path dir) {
        try (SqliteStore store = SqliteStore.open(dir)) {
            List<CompletableFuture<Void>> futures = new ArrayList<>(RESTORE_ENTRIES);
            for (int i = 1; i <= RESTORE_ENTRIES; i++) {
                futures.add(store.append(entry(i)));
            }
            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).join();
        }
        long fileBytes = size(dir.resolve(SqliteStore.FILE_NAME));
        for (int round = 1; round <= 3; round++) {
            long start = System.nanoTime();
            try (SqliteStore store = SqliteStore.open(dir)) {
                long opened = System.nanoTime();
                List<JournalEntry> pending = store.pending();
                long read = System.nanoTime();
                if (pending.size() != RESTORE_ENTRIES || pending.get(RESTORE_ENTRIES - 1).seq() != RESTORE_ENTRIES) {
                    throw new IllegalStateException("restore read " + pending.size() + " entries");
                }
                System.out.printf(Locale.ROOT, "restore %d pending entries (%.1f MB file), round %d: open %d ms"
                                + " (incl. loading %d dedupe keys), pending() %d ms, total %d ms%n",
                        RESTORE_ENTRIES, fileBytes / 1e6, round, (opened - start) / 1_000_000, store.seenKeyCount(),
                        (read - opened) / 1_000_000, (read - start) / 1_000_000);
            }
        }
    }

    private static JournalEntry entry(long seq) {
        InboundMessage message = new InboundMessage("telegram", "default", "chat-" + (seq % 500), null,
                "user-" + (seq % 2000), "User " + (seq % 2000),
                "A typical chat message of about a hundred characters, number " + seq + ", with a little more text.",
                seq % 10 == 0 ? List.of(new Attachment("photo", "p" + seq + ".jpg")) : List.of(),
                Long.toString(1_000_000_000L + seq), Instant.ofEpochMilli(1_770_000_000_000L + seq), seq % 3 == 0,
                false, false);
        return new JournalEntry(seq, "telegram:chat-" + (seq % 500), message, message.text(), QueueSettings.DEFAULTS,
                false);
    }

    private static Path fresh(Path dir) throws IOException {
        delete(dir);
        Files.createDirectories(dir);
        return dir;
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return -1;
        }
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
