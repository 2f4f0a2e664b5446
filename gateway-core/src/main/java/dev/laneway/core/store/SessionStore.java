package dev.laneway.core.store;

import dev.laneway.core.QueueOverride;
import dev.laneway.core.SessionKey;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Per-session state that outlives a run: the {@code /queue} override and the conversation
 * history; and each scheduled job's last fire. Keyed by strings only, so a shared store can
 * implement it later.
 */
public interface SessionStore extends AutoCloseable {

    Optional<QueueOverride> queueOverride(SessionKey session);

    /** Replaces the session's override; an empty override removes it. */
    void setQueueOverride(SessionKey session, QueueOverride override);

    /** The last {@code limit} history entries, oldest first. */
    List<HistoryEntry> history(SessionKey session, int limit);

    void appendHistory(SessionKey session, List<HistoryEntry> entries);

    void clearHistory(SessionKey session);

    /** When the scheduled job {@code jobId} last fired (as recorded by {@link #recordFire}), or empty. */
    Optional<Instant> lastFire(String jobId);

    /**
     * Records that the job fired at {@code at}, durably before returning: a restart reads it back,
     * so a fire is never repeated (docs/behaviour.md §12). Replaces the earlier record.
     */
    void recordFire(String jobId, Instant at);

    @Override
    default void close() {
    }
}
