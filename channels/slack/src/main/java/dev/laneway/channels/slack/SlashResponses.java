package dev.laneway.channels.slack;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Where a slash command's answer goes: the invocation's {@code response_url}, which Slack accepts
 * for 30 minutes (up to five answers) wherever the command was used, also in channels the bot is
 * not a member of and in DMs between other people, where {@code chat.postMessage} would fail.
 * Keyed by the command's message id ({@code slash:<trigger_id>}).
 *
 * <p>Concurrency: {@code lock} guards {@code targets}; the inbound worker adds, the outbox's
 * threads read.
 */
final class SlashResponses {

    /** Slack's validity of a {@code response_url}. */
    static final Duration TTL = Duration.ofMinutes(30);
    private static final int MAX_SIZE = 5_000;

    /** An answer target: the URL and whether only the invoking user sees the answer. */
    record Target(String url, boolean ephemeral, Instant expires) {
    }

    private final InstantSource clock;
    private final ReentrantLock lock = new ReentrantLock();
    // slash command message id -> its response target; guarded by lock; oldest first
    private final LinkedHashMap<String, Target> targets = new LinkedHashMap<>();

    SlashResponses(InstantSource clock) {
        this.clock = clock;
    }

    void expect(String messageId, String url, boolean ephemeral) {
        lock.lock();
        try {
            Instant now = clock.instant();
            expire(now);
            targets.put(messageId, new Target(url, ephemeral, now.plus(TTL)));
            if (targets.size() > MAX_SIZE) {
                Iterator<String> oldest = targets.keySet().iterator();
                oldest.next();
                oldest.remove();
            }
        } finally {
            lock.unlock();
        }
    }

    /** The target for a slash command's answer, while its URL is still valid. */
    Optional<Target> target(String messageId) {
        if (messageId == null) {
            return Optional.empty();
        }
        lock.lock();
        try {
            expire(clock.instant());
            return Optional.ofNullable(targets.get(messageId));
        } finally {
            lock.unlock();
        }
    }

    private void expire(Instant now) {
        Iterator<Map.Entry<String, Target>> it = targets.entrySet().iterator();
        while (it.hasNext() && !it.next().getValue().expires().isAfter(now)) {
            it.remove();
        }
    }
}
