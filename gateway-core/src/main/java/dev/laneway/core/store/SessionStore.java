package dev.laneway.core.store;

import dev.laneway.core.QueueOverride;
import dev.laneway.core.SessionKey;
import java.util.List;
import java.util.Optional;

/**
 * Per-session state that outlives a run: the {@code /queue} override and the conversation
 * history. Keyed by strings only, so a shared store can implement it later.
 */
public interface SessionStore extends AutoCloseable {

    Optional<QueueOverride> queueOverride(SessionKey session);

    /** Replaces the session's override; an empty override removes it. */
    void setQueueOverride(SessionKey session, QueueOverride override);

    /** The last {@code limit} history entries, oldest first. */
    List<HistoryEntry> history(SessionKey session, int limit);

    void appendHistory(SessionKey session, List<HistoryEntry> entries);

    void clearHistory(SessionKey session);

    @Override
    default void close() {
    }
}
