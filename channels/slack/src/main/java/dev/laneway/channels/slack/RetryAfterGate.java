package dev.laneway.channels.slack;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Honours Slack's {@code Retry-After} per Slack channel: after a 429 for one channel, sends to
 * that channel wait until the pause is over, while other channels carry on.
 *
 * <p>Concurrency: {@code pausedUntil} is a concurrent map and every update is an atomic
 * {@code merge}/{@code remove(key, value)}, so callers on any thread see a consistent deadline. The
 * waiting itself happens on the caller's thread (the outbox's virtual thread for that chat) through
 * the injected {@link Sleeper}; the clock is injected too, so tests need no real sleeping.
 */
final class RetryAfterGate {

    private final InstantSource clock;
    private final Sleeper sleeper;
    // Slack channel id -> instant before which nothing may be sent to it
    private final Map<String, Instant> pausedUntil = new ConcurrentHashMap<>();

    RetryAfterGate(InstantSource clock, Sleeper sleeper) {
        this.clock = clock;
        this.sleeper = sleeper;
    }

    /** Blocks until {@code channel} is not paused; returns at once when it never was. */
    void awaitTurn(String channel) throws InterruptedException {
        while (true) {
            Instant until = pausedUntil.get(channel);
            if (until == null) {
                return;
            }
            Instant now = clock.instant();
            if (!until.isAfter(now)) {
                pausedUntil.remove(channel, until);
                return;
            }
            sleeper.sleep(Duration.between(now, until));
        }
    }

    /** Pauses {@code channel} for {@code duration} from now (a longer pause already set wins). */
    void pause(String channel, Duration duration) {
        Instant until = clock.instant().plus(duration);
        pausedUntil.merge(channel, until, (old, fresh) -> old.isAfter(fresh) ? old : fresh);
    }

    /** Whether {@code channel} is paused right now. */
    boolean isPaused(String channel) {
        Instant until = pausedUntil.get(channel);
        return until != null && until.isAfter(clock.instant());
    }

    /**
     * The wait a {@code Retry-After} header asks for: whole seconds per Slack's docs; absent or
     * unreadable means one second; capped at ten minutes so a bad header cannot stall a chat forever.
     */
    static Duration retryAfter(String header) {
        long seconds = 1;
        if (header != null) {
            try {
                seconds = Math.max(0, Long.parseLong(header.trim()));
            } catch (NumberFormatException e) {
                seconds = 1;
            }
        }
        return Duration.ofSeconds(Math.min(seconds, 600));
    }
}
