package dev.laneway.channels.slack;

import com.slack.api.model.User;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Display names and admin flags from {@code users.info}, cached briefly: workspace admins and
 * owners ({@code is_admin} / {@code is_owner}) count as group admins for command authorization.
 * A failed lookup is cached for a shorter time as "unknown, not admin", so a missing
 * {@code users:read} scope costs one call per user per {@code failureTtl}, not one per message.
 *
 * <p>Concurrency: the cache is a concurrent map of immutable entries; two threads looking up the
 * same expired user may both call Slack, which is harmless. Lookups run on the conversation's own
 * inbound thread ({@link InboundProcessor}), so a slow one delays only that conversation. Time
 * comes from the injected clock.
 */
final class SenderDirectory {

    private static final Logger log = LoggerFactory.getLogger(SenderDirectory.class);
    private static final int PRUNE_ABOVE = 10_000;

    /** What the channel knows about a sender; {@code name} is null when unknown. */
    record Sender(String name, boolean admin, boolean bot) {
        static final Sender UNKNOWN = new Sender(null, false, false);
    }

    /** Fetches one user; throws when Slack refuses. */
    @FunctionalInterface
    interface Lookup {
        User fetch(String userId) throws Exception;
    }

    private final Lookup lookup;
    private final InstantSource clock;
    private final Duration ttl;
    private final Duration failureTtl;
    // user id -> cached sender and when it expires
    private final Map<String, Entry> cache = new ConcurrentHashMap<>();
    private final Set<String> warned = ConcurrentHashMap.newKeySet();    // failure kinds already logged

    SenderDirectory(Lookup lookup, InstantSource clock, Duration ttl, Duration failureTtl) {
        this.lookup = lookup;
        this.clock = clock;
        this.ttl = ttl;
        this.failureTtl = failureTtl;
    }

    Sender sender(String userId) {
        Instant now = clock.instant();
        Entry cached = cache.get(userId);
        if (cached != null && cached.expires.isAfter(now)) {
            return cached.sender;
        }
        Entry fresh;
        try {
            fresh = new Entry(toSender(lookup.fetch(userId)), now.plus(ttl));
        } catch (Exception e) {
            report(userId, e);
            fresh = new Entry(Sender.UNKNOWN, now.plus(failureTtl));
        }
        if (cache.size() >= PRUNE_ABOVE) {
            cache.values().removeIf(entry -> !entry.expires.isAfter(now));
        }
        cache.put(userId, fresh);
        return fresh.sender;
    }

    /** Logs the first failure of each kind at warn (a missing scope would repeat for every user). */
    private void report(String userId, Exception e) {
        String message = String.valueOf(e.getMessage());
        String kind = message.substring(message.lastIndexOf(':') + 1).strip();
        if (warned.add(kind)) {
            log.warn("{}; the sender counts as a non-admin without a display name (users.info needs the "
                    + "users:read scope); later '{}' failures are logged at debug", message, kind);
        } else {
            log.debug("users.info for {} failed: {}", userId, message);
        }
    }

    static Sender toSender(User user) {
        if (user == null) {
            return Sender.UNKNOWN;
        }
        return new Sender(displayName(user), user.isAdmin() || user.isOwner() || user.isPrimaryOwner(),
                user.isBot() || user.isAppUser());
    }

    private static String displayName(User user) {
        User.Profile profile = user.getProfile();
        if (profile != null && profile.getDisplayName() != null && !profile.getDisplayName().isBlank()) {
            return profile.getDisplayName();
        }
        if (user.getRealName() != null && !user.getRealName().isBlank()) {
            return user.getRealName();
        }
        return user.getName();
    }

    private record Entry(Sender sender, Instant expires) {
    }
}
