package dev.laneway.channels.telegram;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
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
 * command asks again; a lookup that answers after its bound is still kept for the next one. The
 * exception is a flood wait (HTTP 429, {@link FloodWait}): asking again before its
 * {@code retry_after} has passed would only prolong it, so until then no lookup is made for that
 * chat and every sender counts as a member (not known to be an admin).
 *
 * <p>Concurrency: {@code entries}, {@code floodWaits} and {@code inflight} are concurrent maps of
 * immutable values. At most one lookup per chat is in flight: a caller that misses the cache claims
 * the chat with put-if-absent on {@code inflight}, then reads {@code entries} and
 * {@code floodWaits} again (a lookup that finished between its first read and its claim has
 * already stored its answer, so this finds it and no second lookup starts). The lookup runs on
 * {@code lookups} and stores its answer (or flood wait) before it leaves {@code inflight}.
 */
final class AdminCache {

    private static final Logger log = LoggerFactory.getLogger(AdminCache.class);
    private static final int PRUNE_ABOVE = 10_000;

    /** Where administrator lists come from. */
    @FunctionalInterface
    interface Source {
        /** The chat's administrators; throws {@link FloodWait} when Telegram answered 429. */
        Set<Long> administrators(long chatId) throws Exception;
    }

    /** Telegram answered 429: no lookup for this chat until {@code retryAfter} has passed. */
    static final class FloodWait extends Exception {
        private final Duration retryAfter;

        FloodWait(Duration retryAfter, Throwable cause) {
            super("rate limited (429); retry after " + retryAfter.toSeconds() + " s", cause);
            this.retryAfter = retryAfter;
        }

        Duration retryAfter() {
            return retryAfter;
        }
    }

    private final Source source;
    private final Duration ttl;
    private final Duration bound;
    private final InstantSource clock;
    private final Executor lookups;
    // chat id -> its administrators and when that list expires
    private final Map<Long, Entry> entries = new ConcurrentHashMap<>();
    // chat id -> the instant before which Telegram asked not to look it up again (a 429's retry_after)
    private final Map<Long, Instant> floodWaits = new ConcurrentHashMap<>();
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
        Optional<Set<Long>> known = known(chatId);
        if (known.isPresent()) {
            return known.get().contains(userId);
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

    /**
     * What the cache can answer without Telegram: the chat's current list, or an empty one while a
     * flood wait lasts (nobody known to be an admin); empty when a lookup is needed.
     */
    private Optional<Set<Long>> known(long chatId) {
        Entry entry = entries.get(chatId);
        Instant floodUntil = floodWaits.get(chatId);
        Instant now = clock.instant();
        if (entry != null && now.isBefore(entry.expires())) {
            return Optional.of(entry.admins());
        }
        if (floodUntil != null && now.isBefore(floodUntil)) {
            log.debug("telegram: chat {} is in a flood wait until {}; its administrators are not looked up",
                    chatId, floodUntil);
            return Optional.of(Set.of());
        }
        return Optional.empty();
    }

    private CompletableFuture<Set<Long>> lookup(long chatId) {
        CompletableFuture<Set<Long>> fresh = new CompletableFuture<>();
        CompletableFuture<Set<Long>> running = inflight.putIfAbsent(chatId, fresh);
        if (running != null) {
            return running;
        }
        // claimed: a lookup that ended since the caller's first read has stored its answer by now
        Optional<Set<Long>> known = known(chatId);
        if (known.isPresent()) {
            inflight.remove(chatId, fresh);
            fresh.complete(known.get());
            return fresh;
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
            prune(now);
            entries.put(chatId, new Entry(admins, now.plus(ttl)));
            floodWaits.remove(chatId);
            result.complete(admins);
        } catch (FloodWait e) {
            Instant until = clock.instant().plus(e.retryAfter());
            floodWaits.put(chatId, until);
            log.warn("telegram: getChatAdministrators for chat {} was rate limited (429); not asking again for {} s, "
                    + "as Telegram asks: until then group commands there that need admin rights are refused",
                    chatId, e.retryAfter().toSeconds());
            result.completeExceptionally(e);
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

    private void prune(Instant now) {
        if (entries.size() > PRUNE_ABOVE) {
            entries.values().removeIf(e -> !now.isBefore(e.expires()));
        }
        if (floodWaits.size() > PRUNE_ABOVE) {
            floodWaits.values().removeIf(until -> !now.isBefore(until));
        }
    }

    private record Entry(Set<Long> admins, Instant expires) {
    }
}
