package dev.laneway.core.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link MessageJournal} in memory: survives a {@code Gateway} being thrown away and rebuilt in
 * the same JVM, which is how engine tests simulate a crash and a restart. Concurrent collections
 * throughout; no lock.
 */
public final class InMemoryJournal implements MessageJournal {

    // seq -> pending entry, in sequence order
    private final ConcurrentSkipListMap<Long, JournalEntry> pending = new ConcurrentSkipListMap<>();
    // message key -> true once appended (never expires here)
    private final Set<String> keys = ConcurrentHashMap.newKeySet();
    // seq -> whether it ended answered
    private final Map<Long, Boolean> settled = new ConcurrentHashMap<>();
    private final AtomicLong last = new AtomicLong();

    @Override
    public CompletableFuture<Void> append(JournalEntry entry) {
        pending.put(entry.seq(), entry);
        if (entry.messageKey() != null) {
            keys.add(entry.messageKey());
        }
        last.accumulateAndGet(entry.seq(), Math::max);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public void settled(long seq, boolean answered) {
        pending.remove(seq);
        settled.put(seq, answered);
    }

    @Override
    public List<JournalEntry> pending() {
        return new ArrayList<>(pending.values());
    }

    @Override
    public boolean seen(String messageKey) {
        return keys.contains(messageKey);
    }

    @Override
    public long lastSequence() {
        return last.get();
    }

    /** Whether the message with this sequence number ended answered (null while pending or unknown). */
    public Boolean answered(long seq) {
        return settled.get(seq);
    }
}
