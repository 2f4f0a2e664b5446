package dev.laneway.core.engine;

import dev.laneway.core.Route;

/**
 * Drops of one sender since the last drain, reported once at the next drain. Guarded by the owning
 * {@link SessionQueue}'s lock.
 */
final class DropTally {
    int dropped;
    int summarized;
    int cap;
    Route route;

    void add(QueuedItem victim, int cap, boolean summarize) {
        if (summarize) {
            summarized += victim.tickets().size();
        } else {
            dropped += victim.tickets().size();
        }
        this.cap = cap;
        this.route = victim.route();
    }
}

