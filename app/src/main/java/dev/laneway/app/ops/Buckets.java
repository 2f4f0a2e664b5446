package dev.laneway.app.ops;

import java.time.Duration;

/** Histogram bucket bounds, chosen for chat latencies: lane waits are short, runs are long. */
final class Buckets {

    static final Duration[] WAIT = millis(5, 10, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000, 120_000);
    static final Duration[] RUN = millis(100, 500, 1_000, 2_500, 5_000, 10_000, 20_000, 30_000, 60_000, 120_000, 300_000);
    static final Duration[] DRAIN = millis(100, 250, 500, 1_000, 2_000, 5_000, 10_000, 30_000, 60_000);

    private Buckets() {
    }

    private static Duration[] millis(long... bounds) {
        Duration[] durations = new Duration[bounds.length];
        for (int i = 0; i < bounds.length; i++) {
            durations[i] = Duration.ofMillis(bounds[i]);
        }
        return durations;
    }
}
