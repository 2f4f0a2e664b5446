package dev.laneway.app;

import dev.laneway.config.GatewayConfig;
import dev.laneway.config.LanewayConfig;
import dev.laneway.store.DurableStore;
import dev.laneway.store.SqliteStore;
import dev.laneway.store.StoreOptions;
import dev.laneway.store.redis.RedisStore;
import dev.laneway.store.redis.RedisTarget;

/**
 * Which store a configuration runs on, and its options. {@code gateway.store.kind: sqlite} (the
 * default) opens {@code laneway.db} in {@code gateway.dataDir}; {@code redis} opens the fleet's
 * store at {@code gateway.store.url} (docs/configuration.md §4). History kept per session follows the
 * agents' needs: at least {@link #MIN_HISTORY_PER_SESSION} messages, and never fewer than the largest
 * {@code maxHistoryMessages} of the configured agents, so no agent silently gets less history than
 * it asks for.
 */
final class StoreSetup {

    static final int MIN_HISTORY_PER_SESSION = StoreOptions.defaults().maxHistoryPerSession();

    private StoreSetup() {
    }

    static StoreOptions options(LanewayConfig config) {
        int perSession = Math.max(MIN_HISTORY_PER_SESSION, config.agents().largestHistory());
        return StoreOptions.defaults().withMaxHistoryPerSession(perSession);
    }

    /**
     * Opens the configured store; a {@code StoreException} says what is wrong (an unusable file, Redis
     * unreachable at the URL with its credentials masked, a Redis of another fleet).
     */
    static DurableStore open(LanewayConfig config) {
        GatewayConfig.Store store = config.gateway().store();
        return switch (store.kind()) {
            case SQLITE -> SqliteStore.open(config.gateway().dataDir(), options(config));
            case REDIS -> RedisStore.open(new RedisTarget(store.url(), store.fleet()), options(config));
        };
    }
}
