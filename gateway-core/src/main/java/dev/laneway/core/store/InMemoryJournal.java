package dev.laneway.core.store;

import java.util.ArrayList;
import java.util.Collection;
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
    // seq -> platform message id -> its live message (docs/behaviour.md §16.3), pending entries only
    private final ConcurrentSkipListMap<Long, Map<String, LiveMessage>> live = new ConcurrentSkipListMap<>();

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
        live.remove(seq);
        settled.put(seq, answered);
    }

    @Override
    public void liveShown(LiveMessage message) {
        if (pending.containsKey(message.seq())) {
            live.computeIfAbsent(message.seq(), seq -> java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>()))
                    .put(message.messageId(), message);
            if (!pending.containsKey(message.seq())) {
                live.remove(message.seq()); // settled meanwhile
            }
        }
    }

    @Override
    public void liveGone(long seq, String messageId) {
        Map<String, LiveMessage> messages = live.get(seq);
        if (messages != null) {
            messages.remove(messageId);
        }
    }

    @Override
    public List<LiveMessage> liveMessages(Collection<Long> seqs) {
        List<LiveMessage> found = new ArrayList<>();
        for (long seq : new java.util.TreeSet<>(seqs)) {
            Map<String, LiveMessage> messages = live.get(seq);
            if (messages != null) {
                synchronized (messages) {
                    found.addAll(messages.values());
                }
            }
        }
        return found;
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
