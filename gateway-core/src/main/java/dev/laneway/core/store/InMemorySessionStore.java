package dev.laneway.core.store;

import dev.laneway.core.QueueOverride;
import dev.laneway.core.SessionKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link SessionStore} in memory, for tests and for runs without a data directory. Each map is
 * a {@link ConcurrentHashMap}; a session's history list is only touched inside {@code compute},
 * which serializes writers of that key.
 */
public final class InMemorySessionStore implements SessionStore {

    private final int maxHistoryPerSession;
    // session key -> its stored /queue override
    private final Map<String, QueueOverride> overrides = new ConcurrentHashMap<>();
    // session key -> history, oldest first, at most maxHistoryPerSession entries
    private final Map<String, List<HistoryEntry>> histories = new ConcurrentHashMap<>();
    // job id -> its last fire
    private final Map<String, Instant> fires = new ConcurrentHashMap<>();

    public InMemorySessionStore() {
        this(200);
    }

    public InMemorySessionStore(int maxHistoryPerSession) {
        if (maxHistoryPerSession < 1) {
            throw new IllegalArgumentException("maxHistoryPerSession must be >= 1, got " + maxHistoryPerSession);
        }
        this.maxHistoryPerSession = maxHistoryPerSession;
    }

    @Override
    public Optional<QueueOverride> queueOverride(SessionKey session) {
        return Optional.ofNullable(overrides.get(session.value()));
    }

    @Override
    public void setQueueOverride(SessionKey session, QueueOverride override) {
        if (override == null || override.isEmpty()) {
            overrides.remove(session.value());
        } else {
            overrides.put(session.value(), override);
        }
    }

    @Override
    public List<HistoryEntry> history(SessionKey session, int limit) {
        List<HistoryEntry> result = new ArrayList<>();
        histories.computeIfPresent(session.value(), (key, list) -> {
            result.addAll(list.subList(Math.max(0, list.size() - limit), list.size()));
            return list;
        });
        return result;
    }

    @Override
    public void appendHistory(SessionKey session, List<HistoryEntry> entries) {
        histories.compute(session.value(), (key, list) -> {
            List<HistoryEntry> updated = list == null ? new ArrayList<>() : list;
            updated.addAll(entries);
            if (updated.size() > maxHistoryPerSession) {
                updated.subList(0, updated.size() - maxHistoryPerSession).clear();
            }
            return updated;
        });
    }

    @Override
    public void clearHistory(SessionKey session) {
        histories.remove(session.value());
    }

    @Override
    public Optional<Instant> lastFire(String jobId) {
        return Optional.ofNullable(fires.get(jobId));
    }

    @Override
    public void recordFire(String jobId, Instant at) {
        fires.put(Objects.requireNonNull(jobId, "jobId"), Objects.requireNonNull(at, "at"));
    }
}
