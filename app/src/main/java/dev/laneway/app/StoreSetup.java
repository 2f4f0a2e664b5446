package dev.laneway.app;

import dev.laneway.config.LanewayConfig;
import dev.laneway.store.StoreOptions;

/**
 * The store's options for a configuration. History kept per session follows the agents' needs:
 * at least {@link #MIN_HISTORY_PER_SESSION} messages, and never fewer than the largest
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
}
