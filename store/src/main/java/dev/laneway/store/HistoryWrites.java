package dev.laneway.store;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Per session, the future of its latest queued history write, so that a read of a session's history
 * waits for that session's own writes first; both stores use it (the SQLite store and the Redis
 * store queue history writes without waiting for them).
 *
 * <p>Thread-safe: one concurrent map. A write is submitted inside the map's {@code compute} for its
 * session, so the future kept is that of the session's latest queued write; it is removed once it
 * completes, conditionally, so a newer write's future stays.
 */
public final class HistoryWrites {

    private final Map<String, CompletableFuture<Void>> latest = new ConcurrentHashMap<>();

    /** Queues a history write of {@code session} through {@code submit}, keeping its future until it completes. */
    public void submit(String session, Supplier<CompletableFuture<Void>> submit) {
        CompletableFuture<Void> done = latest.compute(session, (key, previous) -> submit.get());
        done.whenComplete((ignored, error) -> latest.remove(session, done));
    }

    /** Waits for the latest queued history write of {@code session}, if any; one that failed was logged. */
    public void awaitLatest(String session) {
        CompletableFuture<Void> pending = latest.get(session);
        if (pending != null) {
            try {
                pending.join();
            } catch (CompletionException e) {
                // that write failed (and was logged): the read answers what the store has
            }
        }
    }
}
