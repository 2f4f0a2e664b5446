package dev.laneway.channels.slack;

import dev.laneway.core.channel.Backoff;
import dev.laneway.core.channel.SeenIds;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;

/**
 * Tunables of the Slack channel that are not user configuration; tests replace the clock and the
 * backoff.
 *
 * @param clock            time for caches, dedupe windows and pacing
 * @param userCacheTtl     how long a {@code users.info} answer (name, admin flag) is reused
 * @param dedupeTtl        how long event ids and message ts are remembered (Slack retries for ~5 min)
 * @param engagedThreadTtl how long a thread the bot took part in passes without a mention
 * @param reconnectBackoff the waits before reconnecting a dropped socket
 * @param ackDeadline      the longest an event's envelope waits for its message to be stored
 *                         before it is acknowledged anyway (Slack retries after 3 s)
 * @param fleetSeen        where event ids already taken are kept when the instance is one of a fleet
 *                         (Redis: docs/behaviour.md §17, "Ingress"); null: this instance's memory
 */
record SlackOptions(InstantSource clock, Duration userCacheTtl, Duration dedupeTtl, Duration engagedThreadTtl,
                    Backoff reconnectBackoff, Duration ackDeadline, SeenIds.Source fleetSeen) {

    SlackOptions {
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(reconnectBackoff, "reconnectBackoff");
        if (ackDeadline.isNegative() || ackDeadline.isZero()) {
            throw new IllegalArgumentException("ackDeadline must be positive, got " + ackDeadline);
        }
    }

    static SlackOptions defaults() {
        return new SlackOptions(InstantSource.system(), Duration.ofMinutes(5), Duration.ofMinutes(15), Duration.ofHours(24),
                Backoff.exponential(Duration.ofSeconds(1), Duration.ofSeconds(30)), Duration.ofMillis(2500), null);
    }

    /** Where event ids are kept: the fleet's, else this instance's memory on {@link #clock}. */
    SeenIds.Source seen() {
        return fleetSeen != null ? fleetSeen : SeenIds.Source.local(clock);
    }

    /** Event ids kept by {@code value} (a fleet's on Redis). */
    SlackOptions withSeen(SeenIds.Source value) {
        return new SlackOptions(clock, userCacheTtl, dedupeTtl, engagedThreadTtl, reconnectBackoff, ackDeadline, value);
    }

    SlackOptions withClock(InstantSource value) {
        return new SlackOptions(value, userCacheTtl, dedupeTtl, engagedThreadTtl, reconnectBackoff, ackDeadline, fleetSeen);
    }

    SlackOptions withReconnectBackoff(Duration first, Duration max) {
        return new SlackOptions(clock, userCacheTtl, dedupeTtl, engagedThreadTtl, Backoff.exponential(first, max),
                ackDeadline, fleetSeen);
    }

    SlackOptions withAckDeadline(Duration value) {
        return new SlackOptions(clock, userCacheTtl, dedupeTtl, engagedThreadTtl, reconnectBackoff, value, fleetSeen);
    }
}
