package dev.laneway.store.redis;

import dev.laneway.core.QueueOverride;
import dev.laneway.core.store.HistoryEntry;
import java.time.Instant;
import java.util.List;

/** One write for the {@link RedisWriter}, with what it needs already encoded on the caller's thread. */
sealed interface RedisOp {

    /** Whether the op writes to Redis (a batch of only non-writing ops sends nothing). */
    default boolean writes() {
        return true;
    }

    /**
     * @param key     the message key, or null
     * @param json    the entry as {@link RedisCodec#entry} writes it
     * @param session the entry's session (its index in the fleet, docs/architecture.md §7.1)
     */
    record Append(long seq, String key, String json, String session) implements RedisOp { }

    /**
     * @param key      the message key when the store knows it (for its seen-key memory), else null
     * @param leaseKey the session's lease key when the settle is fenced (docs/architecture.md §7.1), else null
     * @param token    the fencing token the lease must still have, when fenced
     */
    record Settle(long seq, boolean answered, long atMillis, String key, String leaseKey, long token)
            implements RedisOp {

        boolean fenced() {
            return leaseKey != null;
        }
    }

    /** @param json the live message as {@link RedisCodec#live} writes it */
    record LiveShown(long seq, String messageId, String json) implements RedisOp { }

    record LiveGone(long seq, String messageId) implements RedisOp { }

    record AppendHistory(String session, List<HistoryEntry> entries) implements RedisOp { }

    record ClearHistory(String session) implements RedisOp { }

    /** Replaces a session's override; an empty one deletes it. */
    record SetOverride(String session, QueueOverride override) implements RedisOp { }

    /** Replaces a scheduled job's last fire. */
    record RecordFire(String jobId, Instant firedAt) implements RedisOp { }

    /**
     * Completes once everything queued before it is written (or failed). With {@code awaitKept}, also
     * not before every settle kept for a retry ahead of it is written or refused (a member leaving its
     * fleet, docs/architecture.md §7.1); the caller bounds the wait. Without it (reads that want their
     * own queued writes), a settle kept for a retry does not hold it up.
     */
    record Flush(boolean awaitKept) implements RedisOp {
        @Override
        public boolean writes() {
            return false;
        }
    }
}
