package dev.laneway.channels.slack;

import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;

/**
 * Tunables of the Slack channel that are not user configuration; tests replace the clock, the
 * sleeper and the backoffs.
 *
 * @param clock              time for caches, dedupe windows and the 429 gate
 * @param sleeper            how the 429 gate waits
 * @param maxSendAttempts    tries per {@code chat.postMessage} while Slack answers 429
 * @param userCacheTtl       how long a {@code users.info} answer (name, admin flag) is reused
 * @param dedupeTtl          how long event ids and message ts are remembered (Slack retries for ~5 min)
 * @param engagedThreadTtl   how long a thread the bot took part in passes without a mention
 * @param reconnectBackoff   first wait before reconnecting a dropped socket (doubles per attempt)
 * @param maxReconnectBackoff the longest wait between reconnect attempts
 * @param ackDeadline        the longest an event's envelope waits for its message to be stored
 *                           before it is acknowledged anyway (Slack retries after 3 s)
 */
record SlackOptions(InstantSource clock, Sleeper sleeper, int maxSendAttempts, Duration userCacheTtl,
                    Duration dedupeTtl, Duration engagedThreadTtl, Duration reconnectBackoff,
                    Duration maxReconnectBackoff, Duration ackDeadline) {

    SlackOptions {
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(sleeper, "sleeper");
        if (maxSendAttempts < 1) {
            throw new IllegalArgumentException("maxSendAttempts must be >= 1, got " + maxSendAttempts);
        }
        if (ackDeadline.isNegative() || ackDeadline.isZero()) {
            throw new IllegalArgumentException("ackDeadline must be positive, got " + ackDeadline);
        }
    }

    static SlackOptions defaults() {
        return new SlackOptions(InstantSource.system(), Sleeper.SYSTEM, 5, Duration.ofMinutes(5),
                Duration.ofMinutes(15), Duration.ofHours(24), Duration.ofSeconds(1), Duration.ofSeconds(30),
                Duration.ofMillis(2500));
    }

    SlackOptions withClock(InstantSource value) {
        return new SlackOptions(value, sleeper, maxSendAttempts, userCacheTtl, dedupeTtl, engagedThreadTtl,
                reconnectBackoff, maxReconnectBackoff, ackDeadline);
    }

    SlackOptions withSleeper(Sleeper value) {
        return new SlackOptions(clock, value, maxSendAttempts, userCacheTtl, dedupeTtl, engagedThreadTtl,
                reconnectBackoff, maxReconnectBackoff, ackDeadline);
    }

    SlackOptions withReconnectBackoff(Duration first, Duration max) {
        return new SlackOptions(clock, sleeper, maxSendAttempts, userCacheTtl, dedupeTtl, engagedThreadTtl,
                first, max, ackDeadline);
    }

    SlackOptions withAckDeadline(Duration value) {
        return new SlackOptions(clock, sleeper, maxSendAttempts, userCacheTtl, dedupeTtl, engagedThreadTtl,
                reconnectBackoff, maxReconnectBackoff, value);
    }
}
