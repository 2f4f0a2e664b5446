package dev.laneway.core.engine;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.channel.ExpiringKeys;
import dev.laneway.core.store.JournalEntry;
import java.time.Duration;
import java.time.InstantSource;

/**
 * Remembers platform message ids (channel, account, chat, id) for a window, so a redelivered
 * message is recognised: an {@link ExpiringKeys} of the message keys. Memory is bounded by the
 * traffic of one window and by {@link #MAX_ENTRIES} (about 30 MB), beyond which the oldest are
 * forgotten early (the journal's answered records still catch redeliveries of answered messages).
 * A zero window remembers nothing.
 *
 * <p>Concurrency: the {@link ExpiringKeys} guards itself.
 */
final class DedupeCache {

    /** Bound on remembered ids, whatever the traffic: the oldest are forgotten first. */
    static final int MAX_ENTRIES = 200_000;

    private final ExpiringKeys seen; // null when the window is zero

    DedupeCache(Duration window, InstantSource clock) {
        this.seen = window.isZero() ? null : new ExpiringKeys(clock, window, MAX_ENTRIES);
    }

    /** Returns true the first time a message is seen within the window; false for a duplicate. */
    boolean firstSighting(InboundMessage message) {
        String key = JournalEntry.keyOf(message);
        return key == null || seen == null || seen.add(key);
    }

    /** Forgets a message seen before, so a redelivery of it is processed (it was refused, not handled). */
    void forget(InboundMessage message) {
        String key = JournalEntry.keyOf(message);
        if (key != null && seen != null) {
            seen.remove(key);
        }
    }

    int size() {
        return seen == null ? 0 : seen.size();
    }
}
