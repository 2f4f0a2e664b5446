package dev.laneway.channels.telegram;

import dev.laneway.core.store.JournalEntry;
import dev.laneway.core.store.MessageJournal;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A journal whose appends can be held: while its {@link Gate} is closed an append's future stays
 * incomplete (the gateway's accept waits for it), so a test can see what the channel does before the
 * message is journaled. Everything else goes to the journal it wraps.
 *
 * <p>Concurrency: the gate's lock guards the held appends; the wrapped journal is thread-safe.
 */
final class GatedJournal implements MessageJournal {

    /** Open by default. */
    static final class Gate {
        private final java.util.concurrent.locks.ReentrantLock lock = new java.util.concurrent.locks.ReentrantLock();
        private final List<CompletableFuture<Void>> held = new java.util.ArrayList<>(); // guarded by lock
        private final AtomicInteger waiting = new AtomicInteger();
        private boolean closed;                                                         // guarded by lock

        void close() {
            lock.lock();
            try {
                closed = true;
            } finally {
                lock.unlock();
            }
        }

        void open() {
            List<CompletableFuture<Void>> release;
            lock.lock();
            try {
                closed = false;
                release = List.copyOf(held);
                held.clear();
            } finally {
                lock.unlock();
            }
            release.forEach(f -> f.complete(null));
        }

        /** Appends held now. */
        int waiting() {
            return waiting.get();
        }

        private CompletableFuture<Void> pass(CompletableFuture<Void> done) {
            lock.lock();
            try {
                if (!closed) {
                    return done;
                }
                CompletableFuture<Void> later = new CompletableFuture<>();
                held.add(later);
                waiting.incrementAndGet();
                return later.thenCompose(ignored -> done).whenComplete((v, e) -> waiting.decrementAndGet());
            } finally {
                lock.unlock();
            }
        }
    }

    private final MessageJournal journal;
    private final Gate gate;

    GatedJournal(MessageJournal journal, Gate gate) {
        this.journal = journal;
        this.gate = gate;
    }

    @Override
    public CompletableFuture<Void> append(JournalEntry entry) {
        return gate.pass(journal.append(entry));
    }

    @Override
    public void settled(long seq, boolean answered) {
        journal.settled(seq, answered);
    }

    @Override
    public List<JournalEntry> pending() {
        return journal.pending();
    }

    @Override
    public boolean seen(String messageKey) {
        return journal.seen(messageKey);
    }

    @Override
    public long lastSequence() {
        return journal.lastSequence();
    }
}
