package dev.laneway.channels.telegram;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who administers each group, from {@code getChatAdministrators}, trusted for {@code ttl}: one
 * lookup per group per {@code ttl} however many commands arrive. It is asked only for group
 * commands that need authority, and waits for an answer at most {@code bound}: a slow or failing
 * lookup then counts the sender as a member for that one command (they are told they may not),
 * but holds up neither polling nor the chat for long. A failure is not remembered, so the next
 * command asks again; a lookup that answers after its bound is still kept for the next one.
 *
 * <p>Concurrency: {@code entries} and {@code inflight} are concurrent maps of immutable values;
 * at most one lookup per chat is in flight (put-if-absent), run on {@code lookups}; it stores its
 * answer before it leaves {@code inflight}, so a caller always finds one or the other.
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
    private final Duration bound;
    private final InstantSource clock;
    private final Executor lookups;
    // chat id -> its administrators and when that list expires
    private final Map<Long, Entry> entries = new ConcurrentHashMap<>();
    // chat id -> the lookup running for it
    private final Map<Long, CompletableFuture<Set<Long>>> inflight = new ConcurrentHashMap<>();

    /**
     * @param bound   the longest a caller waits for a lookup
     * @param lookups runs lookups (production: a virtual thread each)
     */
    AdminCache(Source source, Duration ttl, Duration bound, InstantSource clock, Executor lookups) {
        this.source = source;
        this.ttl = ttl;
        this.bound = bound;
        this.clock = clock;
        this.lookups = lookups;
    }

    boolean isAdmin(long chatId, long userId) {
        Entry entry = entries.get(chatId);
        if (entry != null && clock.instant().isBefore(entry.expires())) {
            return entry.admins().contains(userId);
        }
        try {
            return lookup(chatId).get(bound.toNanos(), TimeUnit.NANOSECONDS).contains(userId);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (TimeoutException e) {
            log.warn("telegram: the administrators of chat {} did not arrive within {} ms; treating the sender as a "
                    + "member for this command", chatId, bound.toMillis());
            return false;
        } catch (ExecutionException e) {
            return false;                     // logged by load
        }
    }

    private CompletableFuture<Set<Long>> lookup(long chatId) {
        CompletableFuture<Set<Long>> fresh = new CompletableFuture<>();
        CompletableFuture<Set<Long>> running = inflight.putIfAbsent(chatId, fresh);
        if (running != null) {
            return running;
        }
        try {
            lookups.execute(() -> load(chatId, fresh));
        } catch (RuntimeException e) {
            inflight.remove(chatId, fresh);
            fresh.completeExceptionally(e);
        }
        return fresh;
    }

    private void load(long chatId, CompletableFuture<Set<Long>> result) {
        try {
            Set<Long> admins = Set.copyOf(source.administrators(chatId));
            Instant now = clock.instant();
            if (entries.size() > PRUNE_ABOVE) {
                entries.values().removeIf(e -> !now.isBefore(e.expires()));
            }
            entries.put(chatId, new Entry(admins, now.plus(ttl)));
            result.complete(admins);
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            log.warn("telegram: could not read the administrators of chat {} ({}); the sender counts as a member "
                    + "for this command, the next one asks again", chatId, e.toString());
            result.completeExceptionally(e);
        } finally {
            inflight.remove(chatId, result);
        }
    }

    private record Entry(Set<Long> admins, Instant expires) {
    }
}
