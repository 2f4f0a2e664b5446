package dev.laneway.app.ops;

import dev.laneway.agents.pool.PoolSnapshot;

/**
 * One provider pool as {@code GET /status} shows it (docs/behaviour.md §14.6). Its endpoint is a hash
 * of base URL, key and model: never the key.
 *
 * @param name          the {@code providers} entry, or {@code agent:<name>} for an agent's own pool
 * @param endpoint      the endpoint's hash
 * @param limit         the concurrency limit now (adaptive or configured); 0: none
 * @param maxConcurrent the configured {@code maxConcurrent}; 0: none
 * @param running       model calls holding a permit
 * @param waiting       model calls waiting for one (their wait counts as queue wait)
 * @param pausedUntil   the end of a 429's pause (ISO-8601), or null
 * @param circuit       {@code closed}, {@code open} or {@code half-open}
 * @param fleetPermits  the fleet's {@code provider:<pool>} permits this instance holds; null when the
 *                      pool's limit is not fleet-wide (one instance, or no {@code maxConcurrent})
 */
public record ProviderView(String name, String endpoint, int limit, int maxConcurrent, int running, int waiting,
                           String pausedUntil, String circuit, Integer fleetPermits) {

    static ProviderView of(PoolSnapshot pool) {
        return new ProviderView(pool.name(), pool.endpoint(), pool.limit(), pool.maxConcurrent(), pool.running(),
                pool.waiting(), pool.pausedUntil().map(Object::toString).orElse(null), pool.circuit(),
                pool.fleetPermits() < 0 ? null : pool.fleetPermits());
    }
}
