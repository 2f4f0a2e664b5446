package dev.laneway.channels.slack;

import dev.laneway.core.channel.ExpiringEntries;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Where a slash command's answer goes: the invocation's {@code response_url}, which Slack accepts
 * for 30 minutes (up to five answers) wherever the command was used, also in channels the bot is
 * not a member of and in DMs between other people, where {@code chat.postMessage} would fail.
 * Keyed by the command's message id ({@code slash:<trigger_id>}); remembered in an
 * {@link ExpiringEntries} for the URL's validity, at most {@link #MAX_SIZE} of them.
 *
 * <p>Concurrency: {@code lock} guards {@code targets}; the inbound worker adds, the outbox's
 * threads read.
 */
final class SlashResponses {

    /** Slack's validity of a {@code response_url}. */
    static final Duration TTL = Duration.ofMinutes(30);
    private static final int MAX_SIZE = 5_000;

    /** An answer target: the URL and whether only the invoking user sees the answer. */
    record Target(String url, boolean ephemeral) {
    }

    private final ReentrantLock lock = new ReentrantLock();
    // slash command message id -> its response target, while the URL is valid; guarded by lock
    private final ExpiringEntries<Target> targets;

    SlashResponses(InstantSource clock) {
        this.targets = new ExpiringEntries<>(clock, TTL, MAX_SIZE);
    }

    void expect(String messageId, String url, boolean ephemeral) {
        lock.lock();
        try {
            targets.put(messageId, new Target(url, ephemeral));
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
            return Optional.ofNullable(targets.get(messageId));
        } finally {
            lock.unlock();
        }
    }
}
