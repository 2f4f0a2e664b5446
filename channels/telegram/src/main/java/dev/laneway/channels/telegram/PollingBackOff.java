package dev.laneway.channels.telegram;

import dev.laneway.core.channel.Backoff;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.telegram.telegrambots.longpolling.interfaces.BackOff;

/**
 * The long-polling session's backoff: the SDK asks for the next wait after each failed
 * {@code getUpdates} (network error, server down, 5xx) and resets it after each success. The waits
 * are the shared {@link Backoff}'s (doubling from the configured initial wait up to the maximum,
 * with jitter); the channel reads {@link #healthy()} for readiness, and an outage logs one line
 * when it starts and one when it ends.
 *
 * <p>Concurrency: called from the polling thread only; {@code healthy} and {@code failures} are
 * read from others (volatile, one writer).
 */
final class PollingBackOff implements BackOff {

    private static final Logger log = LoggerFactory.getLogger(PollingBackOff.class);

    private final Backoff backoff;
    private volatile int failures;     // written by the polling thread only
    private volatile boolean healthy = true;
    private volatile boolean closing;

    PollingBackOff(Backoff backoff) {
        this.backoff = backoff;
    }

    @Override
    public void reset() {
        if (failures > 0) {
            log.info("telegram: long polling recovered after {} failed attempt(s)", failures);
        }
        failures = 0;
        healthy = true;
    }

    @Override
    public long nextBackOffMillis() {
        int failed = ++failures;
        healthy = false;
        if (failed == 1 && !closing) {
            log.warn("telegram: getUpdates failed; retrying with backoff from {} ms up to {} ms",
                    backoff.initial().toMillis(), backoff.max().toMillis());
        }
        return backoff.delay(failed).toMillis();
    }

    /** The channel is stopping: the poll it cuts off is not an outage worth a warning. */
    void closing() {
        closing = true;
    }

    /** Failed polls since the last successful one. */
    int failures() {
        return failures;
    }

    /** False from the first failed poll until the next successful one. */
    boolean healthy() {
        return healthy;
    }
}
