package dev.laneway.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.store.JournalEntry;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** Concurrent appends, group commit, and reads that do not wait for the writer. */
public abstract class ConcurrencyContract extends StoreContract {

    @Test
    void concurrentAppendsFromManyThreadsAreAllDurable() throws Exception {
        int threads = 16;
        int perThread = 250;
        AtomicLong sequence = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (DurableStore store = open()) {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                workers.add(pool.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        long seq = sequence.incrementAndGet();
                        // as the gateway does: wait for the group commit before counting it accepted
                        store.append(Fixtures.entry(seq, "s" + seq % 5, "p" + seq)).join();
                        if (seq % 2 == 0) {
                            store.settled(seq, seq % 4 == 0);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> worker : workers) {
                worker.get(60, TimeUnit.SECONDS);
            }
            assertTrue(store.commitCount() <= threads * perThread + 2, "commits: " + store.commitCount());
        } finally {
            pool.shutdownNow();
        }
        long total = (long) threads * perThread;
        try (DurableStore store = open()) {
            List<Long> pending = store.pending().stream().map(JournalEntry::seq).toList();
            assertEquals(LongStream.rangeClosed(1, total).filter(seq -> seq % 2 == 1).boxed().toList(), pending);
            assertEquals(total, store.lastSequence());
            for (long seq = 1; seq <= total; seq++) {
                boolean known = seq % 2 == 1 || seq % 4 == 0;
                assertEquals(known, store.seen(Fixtures.entry(seq, "s" + seq % 5, "p" + seq).messageKey()), "seq " + seq);
            }
        }
    }

    @Test
    void groupCommit_manyAppendsCompleteWithFewTransactions() throws Exception {
        int threads = 10;
        int perThread = 500;
        try (DurableStore store = open(Fixtures.options(clock).withMaxBatch(1000))) {
            CountDownLatch release = new CountDownLatch(1);
            subject.holdWriter(store, release); // appends pile up behind this, as under a burst
            List<CompletableFuture<Void>> futures = Collections.synchronizedList(new ArrayList<>());
            List<Thread> producers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int base = t * perThread;
                producers.add(Thread.ofPlatform().start(() -> {
                    for (int i = 1; i <= perThread; i++) {
                        futures.add(store.append(Fixtures.entry(base + i)));
                    }
                }));
            }
            for (Thread producer : producers) {
                producer.join();
            }
            long before = store.commitCount();
            assertTrue(futures.stream().noneMatch(CompletableFuture::isDone), "nothing is durable before the commit");
            release.countDown();
            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            long commits = store.commitCount() - before;
            assertEquals(threads * perThread / 1000, commits, "5000 appends in batches of at most 1000");
            assertEquals(threads * perThread, store.pending().size());
        }
    }

    @Test
    void readsDoNotWaitForTheWriter() throws Exception {
        try (DurableStore store = open()) {
            store.append(Fixtures.entry(1)).join();
            CountDownLatch release = new CountDownLatch(1);
            subject.holdWriter(store, release);
            CompletableFuture<Void> blocked = store.append(Fixtures.entry(2));
            // seen() and lastSequence() answer at once, with the queued append included
            assertTrue(store.seen(Fixtures.entry(2).messageKey()));
            assertEquals(2, store.lastSequence());
            // history of an untouched session reads while the writer is held
            assertEquals(List.of(), store.history(dev.laneway.core.SessionKey.of("other"), 5));
            release.countDown();
            blocked.get(10, TimeUnit.SECONDS);
        }
    }
}
