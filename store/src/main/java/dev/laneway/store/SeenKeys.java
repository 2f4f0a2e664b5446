package dev.laneway.store;

import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The message keys {@link SqliteStore#seen} answers from memory, so the accept path does not read the
 * disk while the heap holds everything: the keys of pending rows (always; admission bounds them) and
 * of the latest {@code maxAnswered} answered rows within the retention, each with the sequence number
 * of the row that holds it. Loaded at open, updated on append and settle, trimmed when the writer
 * deletes expired answered rows.
 *
 * <p>Bound: an answered key becomes evictable once its "answered" record is committed (so the
 * database can answer for it). When more than {@code maxAnswered} are held, the oldest is dropped
 * from heap and {@code diskUntil} moves to the end of its retention: until then, a key missing here
 * may still be answered on disk and {@link SqliteStore#seen} asks the database. A key whose
 * "answered" record could not be written ({@link #answerNotRecorded}) is evictable too, so failed
 * writes cannot fill the heap; the disk cannot answer for it (its row stays pending), so evicting it
 * does not move {@code diskUntil}.
 *
 * <p>Concurrency: concurrent maps and atomics, no lock. Removals are conditional on the sequence
 * number ({@code remove(key, seq)}), so forgetting an old row never forgets a newer row with the same
 * key, whatever order the threads run in. Any thread may call {@link #contains}, {@link #pending},
 * {@link #settled} and {@link #forgetPending}, which touch only the two maps. {@code order} and
 * {@code orderSize} change only in {@link #answered} (at open, before the writer starts) and in
 * {@link #answerCommitted}, {@link #answerNotRecorded}, {@link #answerRecordedLate} and {@link #expired}, which the store calls
 * only from its writer thread (its {@code StoreWriter.Events}); so they change on one thread at a
 * time, and {@code orderSize} is the length of {@code order} whenever that thread is not inside them.
 */
final class SeenKeys {

    /** An answered key held in heap, oldest first in {@code order}; {@code onDisk}: the database can answer for it. */
    private record Answered(String key, long seq, long settledAt, boolean onDisk) {
    }

    private final int maxAnswered;
    private final long retentionMillis;
    // message key -> seq of the row that holds it (pending, or answered and not yet expired or evicted)
    private final Map<String, Long> seqByKey = new ConcurrentHashMap<>();
    // seq -> message key, for pending rows that have a key (what settle needs to find the key)
    private final Map<Long, String> pendingKeyBySeq = new ConcurrentHashMap<>();
    // answered keys in heap, committed or not recorded, oldest first (entries whose key was since
    // forgotten are skipped); changed on one thread at a time, see the class comment
    private final Queue<Answered> order = new ConcurrentLinkedQueue<>();
    private final AtomicInteger orderSize = new AtomicInteger();
    // epoch millis until which an evicted answered key may still be within the retention on disk
    private final AtomicLong diskUntil = new AtomicLong(Long.MIN_VALUE);

    SeenKeys(int maxAnswered, long retentionMillis) {
        this.maxAnswered = maxAnswered;
        this.retentionMillis = retentionMillis;
    }

    boolean contains(String key) {
        return seqByKey.containsKey(key);
    }

    /** Whether a key missing from heap may still be answered on disk at {@code nowMillis}. */
    boolean mayBeOnDiskOnly(long nowMillis) {
        return nowMillis < diskUntil.get();
    }

    /** A pending row (at load, or appended now). */
    void pending(long seq, String key) {
        if (key != null) {
            seqByKey.put(key, seq);
            pendingKeyBySeq.put(seq, key);
        }
    }

    /** An answered row within the retention (at load, oldest first). */
    void answered(long seq, String key, long settledAt) {
        if (key != null) {
            seqByKey.put(key, seq);
            remember(new Answered(key, seq, settledAt, true));
        }
    }

    /** Rows the load left on disk (beyond the heap's share) are within the retention until {@code settledAt}. */
    void leftOnDisk(long newestSettledAt) {
        diskUntil.accumulateAndGet(newestSettledAt + retentionMillis, Math::max);
    }

    /**
     * The message ended: an answered one stays known (evictable once {@link #answerCommitted}), any
     * other is forgotten. Returns the key of an answered message, else null.
     */
    String settled(long seq, boolean answered) {
        String key = pendingKeyBySeq.remove(seq);
        if (key != null && !answered) {
            seqByKey.remove(key, seq);
            return null;
        }
        return key;
    }

    /** Writer thread: the answered record of {@code seq} is committed; the database can now answer for it. */
    void answerCommitted(long seq, String key, long settledAt) {
        if (isHeld(key, seq)) {
            remember(new Answered(key, seq, settledAt, true));
        }
    }

    /**
     * Writer thread: the answered record of {@code seq} could not be written (its row stays pending on
     * disk and runs again after a restart). The key stays known, so a redelivery is not answered
     * twice now, but it is evictable like any answered key.
     */
    void answerNotRecorded(long seq, String key, long settledAt) {
        if (isHeld(key, seq)) {
            remember(new Answered(key, seq, settledAt, false));
        }
    }

    /**
     * Writer thread: the answered record of {@code seq}, reported {@link #answerNotRecorded} earlier,
     * was written at last (the store's writer kept it and retried). While the key is held it becomes
     * a committed one (its eviction now tells {@link #mayBeOnDiskOnly}); if it was evicted meanwhile,
     * a key missing from heap may be it until its retention ends.
     */
    void answerRecordedLate(long seq, String key, long settledAt) {
        if (order.remove(new Answered(key, seq, settledAt, false))) {
            orderSize.decrementAndGet();
        }
        if (isHeld(key, seq)) {
            remember(new Answered(key, seq, settledAt, true));
        } else {
            diskUntil.accumulateAndGet(settledAt + retentionMillis, Math::max);
        }
    }

    /** Any thread: the append of this pending row failed (or was refused): forget it. */
    void forgetPending(long seq, String key) {
        if (key != null) {
            pendingKeyBySeq.remove(seq, key);
            seqByKey.remove(key, seq);
        }
    }

    /** Writer thread: this answered record expired and was deleted. */
    void expired(long seq, String key) {
        if (key != null) {
            seqByKey.remove(key, seq);
        }
        dropForgottenHead();
    }

    int size() {
        return seqByKey.size();
    }

    private void remember(Answered answered) {
        order.add(answered);
        if (orderSize.incrementAndGet() > maxAnswered) {
            evictOldest();
        }
    }

    private void evictOldest() {
        Answered oldest = order.poll();
        if (oldest == null) {
            return;
        }
        orderSize.decrementAndGet();
        if (seqByKey.remove(oldest.key(), oldest.seq()) && oldest.onDisk()) {
            diskUntil.accumulateAndGet(oldest.settledAt() + retentionMillis, Math::max);
        }
    }

    /** Expired keys sit at the head of {@code order}: drop them so they do not hold heap slots. */
    private void dropForgottenHead() {
        for (Answered head = order.peek(); head != null && !isHeld(head.key(), head.seq()); head = order.peek()) {
            if (order.remove(head)) {
                orderSize.decrementAndGet();
            }
        }
    }

    private boolean isHeld(String key, long seq) {
        Long held = seqByKey.get(key);
        return held != null && held == seq;
    }
}
