package dev.laneway.agents.pool;

import java.time.Instant;
import java.util.Optional;

/**
 * One provider pool at one moment, for {@code GET /status} (docs/behaviour.md §14.6).
 *
 * @param name          the {@code providers} entry, or {@code agent:<name>} for an agent's own pool
 * @param endpoint      the endpoint's key (a hash of base URL, key and model: never the key itself)
 * @param limit         the concurrency limit now (the adaptive one, or {@code maxConcurrent}); 0: none
 * @param maxConcurrent the configured {@code maxConcurrent} (0: none)
 * @param running       model calls holding a permit
 * @param waiting       model calls waiting for one
 * @param pausedUntil   the end of a 429's pause, while one is on
 * @param circuit       {@code closed}, {@code open} or {@code half-open}
 * @param fleetPermits  the fleet's {@code provider:<pool>} permits held here; -1 when the limit is not fleet-wide
 */
public record PoolSnapshot(String name, String endpoint, int limit, int maxConcurrent, int running, int waiting,
                           Optional<Instant> pausedUntil, String circuit, int fleetPermits) {
}
