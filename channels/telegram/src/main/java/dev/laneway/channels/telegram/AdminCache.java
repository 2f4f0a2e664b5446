package dev.laneway.channels.telegram;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who administers each group, from {@code getChatAdministrators}, trusted for {@code ttl}. One
 * lookup per group per {@code ttl} however many messages arrive. A failed lookup counts as "no
 * admins" (commands stay locked, nothing breaks) and is retried after {@code failureTtl}.
 *
 * <p>Concurrency: lookups for one chat are sequential (the caller runs each chat's messages in
 * order, see {@link KeyedSequencer}); different chats look up in parallel through the concurrent
 * map.
 */
final class AdminCache {

    private static final Logger log = LoggerFactory.getLogger(AdminCache.class);
    private static final int PRUNE_ABOVE = 10_000;

    /** Where administrator lists come from. */
    @FunctionalInterface
    interface Source {
        Set<Long> administrators(long chatId) throws Exception;
    }

    private final Source source;
    private final Duration ttl;
    private final Duration failureTtl;
    private final InstantSource clock;
    // chat id -> its administrators and when that list expires
    private final Map<Long, Entry> entries = new ConcurrentHashMap<>();

    AdminCache(Source source, Duration ttl, Duration failureTtl, InstantSource clock) {
        this.source = source;
        this.ttl = ttl;
        this.failureTtl = failureTtl;
        this.clock = clock;
    }

    boolean isAdmin(long chatId, long userId) {
        Instant now = clock.instant();
        Entry entry = entries.get(chatId);
        if (entry == null || !now.isBefore(entry.expires())) {
            entry = load(chatId, now);
            if (entries.size() > PRUNE_ABOVE) {
                entries.values().removeIf(e -> !now.isBefore(e.expires()));
            }
            entries.put(chatId, entry);
        }
        return entry.admins().contains(userId);
    }

    private Entry load(long chatId, Instant now) {
        try {
            return new Entry(Set.copyOf(source.administrators(chatId)), now.plus(ttl));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Entry(Set.of(), now);
        } catch (Exception e) {
            log.warn("telegram: could not read the administrators of chat {} ({}); treating the sender as a member "
                    + "for {} s", chatId, e.toString(), failureTtl.toSeconds());
            return new Entry(Set.of(), now.plus(failureTtl));
        }
    }

    private record Entry(Set<Long> admins, Instant expires) {
    }
}
