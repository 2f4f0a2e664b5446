package dev.laneway.store;

import dev.laneway.core.store.MessageJournal;
import dev.laneway.core.store.SessionStore;

/**
 * A store the app can run on: {@link SessionStore} and {@link MessageJournal} in one, durable, with
 * the few operations the app and the store contract tests need beyond the SPI. Implemented by
 * {@link SqliteStore} (one instance, a file) and the Redis store (module {@code store-redis}, a
 * fleet); both pass the same contract suite (docs/architecture.md §7).
 */
public interface DurableStore extends SessionStore, MessageJournal {

    /** True until {@link #close()} (for readiness checks). */
    boolean isOpen();

    /**
     * False while the store cannot reach its server (Redis down: its last write or the fleet's last
     * heartbeat failed), so {@code /readyz} says not ready; always true for a file.
     */
    default boolean reachable() {
        return true;
    }

    /** Waits until every write queued so far is durable (or failed). A no-op once closed. */
    void flush();

    /** Group commits made since open: many appends per commit means group commit works. */
    long commitCount();

    /** Where the data lives, safe to log: the SQLite file, or the Redis URL without credentials and the fleet. */
    String describe();

    @Override
    void close();
}
