package dev.laneway.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * {@code gateway:} process-level settings.
 *
 * @param dataDir       the embedded store's directory, as written (relative paths are the app's to resolve)
 * @param http          the status/metrics/health endpoint
 * @param admission     global backpressure (docs/behaviour.md §8.4)
 * @param shutdownGrace how long in-flight work may finish on SIGTERM ({@code shutdownGraceMs})
 */
public record GatewayConfig(Path dataDir, Http http, Admission admission, Duration shutdownGrace) {

    public static final GatewayConfig DEFAULTS = new GatewayConfig(
            Path.of("./data"), Http.DEFAULTS, Admission.DEFAULTS, Duration.ofMillis(10_000));

    public GatewayConfig {
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(http, "http");
        Objects.requireNonNull(admission, "admission");
        Objects.requireNonNull(shutdownGrace, "shutdownGrace");
    }

    /** {@code gateway.http:} the endpoint's switch and listen address. */
    public record Http(boolean enabled, String bind, int port) {
        public static final Http DEFAULTS = new Http(true, "127.0.0.1", 8787);
    }

    /** {@code gateway.admission:} {@code maxPendingRuns} accepted, unfinished messages; 0 disables the cap. */
    public record Admission(int maxPendingRuns) {
        public static final Admission DEFAULTS = new Admission(1000);
    }
}
