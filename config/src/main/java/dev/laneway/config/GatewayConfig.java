package dev.laneway.config;

import dev.laneway.core.UrlRedactor;
import java.net.URI;
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
 * @param store         which store keeps the journal and session state ({@code gateway.store})
 */
public record GatewayConfig(Path dataDir, Http http, Admission admission, Duration shutdownGrace, Store store) {

    public static final GatewayConfig DEFAULTS = new GatewayConfig(
            Path.of("./data"), Http.DEFAULTS, Admission.DEFAULTS, Duration.ofMillis(10_000), Store.DEFAULTS);

    public GatewayConfig {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(http, "http");
        Objects.requireNonNull(admission, "admission");
        Objects.requireNonNull(shutdownGrace, "shutdownGrace");
    }

    /**
     * {@code gateway.http:} the endpoint's switch and listen address, and the token the console's admin
     * actions need (docs/behaviour.md §18; required when {@code bind} is not a loopback address).
     *
     * @param adminToken {@link Secret#NONE} when unset: admin actions are then refused
     */
    public record Http(boolean enabled, String bind, int port, Secret adminToken) {
        public static final Http DEFAULTS = new Http(true, "127.0.0.1", 8787, Secret.NONE);

        public Http {
            adminToken = adminToken == null ? Secret.NONE : adminToken;
        }

        /** Without an admin token. */
        public Http(boolean enabled, String bind, int port) {
            this(enabled, bind, port, Secret.NONE);
        }
    }

    /** {@code gateway.admission:} {@code maxPendingRuns} accepted, unfinished messages; 0 disables the cap. */
    public record Admission(int maxPendingRuns) {
        public static final Admission DEFAULTS = new Admission(1000);
    }

    /**
     * {@code gateway.store:} the embedded SQLite store in {@code dataDir} (the default), or a Redis
     * shared by a fleet (docs/configuration.md §4). {@link #toString()} masks the URL's credentials.
     *
     * @param kind  {@code sqlite} or {@code redis}
     * @param url   the Redis URL (kind redis only; may carry a password)
     * @param fleet the fleet's name, in every Redis key (kind redis only)
     */
    public record Store(Kind kind, URI url, String fleet) {

        public static final Store DEFAULTS = new Store(Kind.SQLITE, null, null);
        /** Where {@code kind: redis} looks when no {@code url} is given. */
        public static final URI DEFAULT_URL = URI.create("redis://127.0.0.1:6379");

        public enum Kind { SQLITE, REDIS }

        public Store {
            Objects.requireNonNull(kind, "kind");
            if (kind == Kind.REDIS) {
                Objects.requireNonNull(url, "url");
                Objects.requireNonNull(fleet, "fleet");
            }
        }

        @Override
        public String toString() {
            return kind == Kind.SQLITE ? "sqlite" : "redis " + UrlRedactor.redact(url) + " fleet " + fleet;
        }
    }
}
