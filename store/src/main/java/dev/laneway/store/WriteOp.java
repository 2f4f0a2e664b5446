package dev.laneway.store;

import dev.laneway.core.QueueOverride;
import dev.laneway.core.store.HistoryEntry;
import dev.laneway.core.store.JournalEntry;
import java.util.List;

/** One write for the {@link StoreWriter}, with the time it was asked for (epoch millis from the store's clock). */
sealed interface WriteOp {

    /** Whether the op touches the database (a batch of only non-database ops commits nothing). */
    default boolean writes() {
        return true;
    }

    record Append(JournalEntry entry, long atMillis) implements WriteOp { }

    /** @param answeredKey the message key of an answered message (kept for dedupe), else null */
    record Settle(long seq, boolean answered, long atMillis, String answeredKey) implements WriteOp { }

    record AppendHistory(String session, List<HistoryEntry> entries, long atMillis) implements WriteOp { }

    record ClearHistory(String session) implements WriteOp { }

    /** Replaces a session's override; an empty one deletes it. */
    record SetOverride(String session, QueueOverride override, long atMillis) implements WriteOp { }

    /** Replaces a scheduled job's last fire. */
    record RecordFire(String jobId, java.time.Instant firedAt, long atMillis) implements WriteOp { }

    /** Records (or replaces) a live message of a pending message's streamed answer; ignored once it ended. */
    record LiveShown(dev.laneway.core.store.LiveMessage message, long atMillis) implements WriteOp { }

    /** Forgets one live message. */
    record LiveGone(long seq, String messageId) implements WriteOp { }

    /** Completes once everything queued before it is committed. */
    record Flush() implements WriteOp {
        @Override
        public boolean writes() {
            return false;
        }
    }
}
