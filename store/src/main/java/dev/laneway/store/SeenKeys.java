package dev.laneway.store;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The message keys {@link SqliteStore#seen} answers from, so the accept path never reads the disk:
 * the keys of pending rows and of answered rows within the retention, each with the sequence number
 * of the row that holds it. Loaded at open, updated on append and settle, and trimmed when the writer
 * deletes expired answered rows.
 *
 * <p>Concurrency: two {@link ConcurrentHashMap}s, no lock. Removals are conditional on the sequence
 * number ({@code remove(key, seq)}), so forgetting an old row never forgets a newer row with the same
 * key, whatever order the threads run in.
 */
final class SeenKeys {

    // message key -> seq of the row that holds it (pending, or answered and not yet expired)
    private final Map<String, Long> seqByKey = new ConcurrentHashMap<>();
    // seq -> message key, for pending rows that have a key (what settle needs to forget an unanswered one)
    private final Map<Long, String> pendingKeyBySeq = new ConcurrentHashMap<>();

    boolean contains(String key) {
        return seqByKey.containsKey(key);
    }

    /** A pending row (at load, or appended now). */
    void pending(long seq, String key) {
        if (key != null) {
            seqByKey.put(key, seq);
            pendingKeyBySeq.put(seq, key);
        }
    }

    /** An answered row within the retention (at load). */
    void answered(long seq, String key) {
        if (key != null) {
            seqByKey.put(key, seq);
        }
    }

    /** The message ended: an answered one stays known until it expires, any other is forgotten. */
    void settled(long seq, boolean answered) {
        String key = pendingKeyBySeq.remove(seq);
        if (key != null && !answered) {
            seqByKey.remove(key, seq);
        }
    }

    /** The append of this row failed, or its answered record expired: forget it. */
    void forget(long seq, String key) {
        if (key != null) {
            pendingKeyBySeq.remove(seq, key);
            seqByKey.remove(key, seq);
        }
    }

    int size() {
        return seqByKey.size();
    }
}
