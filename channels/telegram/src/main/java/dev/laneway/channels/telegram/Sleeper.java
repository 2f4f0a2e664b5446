package dev.laneway.channels.telegram;

import java.time.Duration;

/**
 * Waits for a while on the calling thread. The channel's only way to wait (pacing, {@code retry_after},
 * send retries), so tests can replace real sleeping with a recording or virtual-time sleeper.
 */
@FunctionalInterface
public interface Sleeper {

    /** The real one: {@link Thread#sleep(Duration)}; zero and negative waits return at once. */
    Sleeper SYSTEM = duration -> {
        if (duration.isPositive()) {
            Thread.sleep(duration);
        }
    };

    void sleep(Duration duration) throws InterruptedException;
}
