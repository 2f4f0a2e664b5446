package dev.laneway.config;

import dev.laneway.core.UrlRedactor;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code gateway:} process-level settings.
 *
 * @param dataDir       the embedded store's directory, as written (relative paths are the app's to resolve)
 * @param http          the status/metrics/health endpoint
 * @param admission     global backpressure (docs/behaviour.md §8.4)
 * @param shutdownGrace how long in-flight work may finish on SIGTERM ({@code shutdownGraceMs})
 * @param store         which store keeps the journal and session state ({@code gateway.store})
 * @param fleet         the fleet's lease timings ({@code gateway.fleet}; used with {@code store.kind: redis} only)
 */
public record GatewayConfig(Path dataDir, Http http, Admission admission, Duration shutdownGrace, Store store,
                            Fleet fleet) {

    public static final GatewayConfig DEFAULTS = new GatewayConfig(
            Path.of("./data"), Http.DEFAULTS, Admission.DEFAULTS, Duration.ofMillis(10_000), Store.DEFAULTS,
            Fleet.DEFAULTS);

    public GatewayConfig {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(fleet, "fleet");
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

    /**
     * {@code gateway.fleet:} how long a fleet's leases, permits and heartbeats live without renewal,
     * and how often an instance renews them and sweeps for sessions to take over
     * (docs/configuration.md §17, docs/decisions.md D180). The store's {@code FleetTiming} checks
     * the same rules; they are checked here too so that {@code validate} refuses what {@code run}
     * would.
     *
     * @param leaseTtl   a lease's, a permit's and the heartbeat's lifetime without renewal
     * @param renewEvery the beat (renewals) and the takeover sweep; at most a third of {@code leaseTtl}
     */
    public record Fleet(Duration leaseTtl, Duration renewEvery) {

        public static final Duration DEFAULT_LEASE_TTL = Duration.ofSeconds(15);
        public static final Duration MIN_LEASE_TTL = Duration.ofSeconds(1);
        public static final Duration MAX_LEASE_TTL = Duration.ofHours(1);
        public static final Duration MIN_RENEW_EVERY = Duration.ofMillis(100);
        public static final Fleet DEFAULTS = of(DEFAULT_LEASE_TTL);

        public Fleet {
            Objects.requireNonNull(leaseTtl, "leaseTtl");
            Objects.requireNonNull(renewEvery, "renewEvery");
            problem(leaseTtl, renewEvery).ifPresent(p -> {
                throw new IllegalArgumentException(p);
            });
        }

        /** A ttl renewed at a third of it (the default renewal). */
        public static Fleet of(Duration leaseTtl) {
            return new Fleet(leaseTtl, defaultRenewEvery(leaseTtl));
        }

        /** The renewal when none is given: a third of the ttl, in whole milliseconds. */
        public static Duration defaultRenewEvery(Duration leaseTtl) {
            return Duration.ofMillis(leaseTtl.toMillis() / 3);
        }

        /** What is wrong with the pair, if anything, as a sentence naming the keys. */
        public static Optional<String> problem(Duration leaseTtl, Duration renewEvery) {
            if (leaseTtl.compareTo(MIN_LEASE_TTL) < 0 || leaseTtl.compareTo(MAX_LEASE_TTL) > 0) {
                return Optional.of("leaseTtlMs must be between 1s and 1h, got " + leaseTtl.toMillis() + "ms");
            }
            if (renewEvery.compareTo(MIN_RENEW_EVERY) < 0 || renewEvery.multipliedBy(3).compareTo(leaseTtl) > 0) {
                return Optional.of("renewEveryMs must be at least 100ms and at most a third of leaseTtlMs ("
                        + leaseTtl.toMillis() + "ms), so that two renewals can fail before a lease expires, got "
                        + renewEvery.toMillis() + "ms");
            }
            return Optional.empty();
        }
    }
}
