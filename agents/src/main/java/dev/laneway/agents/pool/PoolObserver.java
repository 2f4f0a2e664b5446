package dev.laneway.agents.pool;

import dev.laneway.core.scheduling.PriorityClass;
import java.time.Duration;

/**
 * What provider pools and the agents calling through them tell metrics (docs/behaviour.md §14.6).
 * Called on run threads and timers, never under a pool's lock; must not block or throw.
 */
public interface PoolObserver {

    PoolObserver NONE = new PoolObserver() { };

    /** A model call waited {@code waited} for a permit of {@code pool} (0 when one was free). */
    default void waited(String pool, PriorityClass priority, Duration waited) {
    }

    /** A model call of {@code agent} for {@code tenant} used these tokens. */
    default void tokens(String agent, String tenant, Usage usage) {
    }

    /** The provider answered 429: {@code pool} pauses for {@code pause}. */
    default void rateLimited(String pool, Duration pause) {
    }

    /** {@code pool}'s circuit breaker moved to {@code state} ({@code closed}, {@code open}, {@code half-open}). */
    default void circuit(String pool, String state) {
    }

    /** A run failed at once because {@code pool}'s circuit was open. */
    default void failedFast(String pool) {
    }

    /** {@code pool}'s adaptive concurrency limit is now {@code limit}. */
    default void limit(String pool, int limit) {
    }
}
