package dev.laneway.app.ops;

import dev.laneway.agents.pool.PoolSnapshot;
import dev.laneway.core.engine.Gateway;
import dev.laneway.core.jobs.JobStatus;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * What each ops path answers: {@code /healthz}, {@code /readyz}, {@code /metrics}, {@code /status},
 * {@code /capabilities}. Holds only its sources and reads them afresh on every call, so it is safe
 * from any number of request threads. Answers are built from engine state and
 * {@code GatewaySettings}, never from the configuration file, so no token can reach them.
 */
public final class OpsEndpoints {

    private final Gateway gateway;
    private final MetricsObserver metrics;
    private final Supplier<Map<String, Boolean>> channels;
    private final BooleanSupplier storeOpen;
    private final Supplier<List<JobStatus>> jobs;
    private final Supplier<List<PoolSnapshot>> providers;
    private final BooleanSupplier storeReachable;
    private final Supplier<FleetView> fleet;

    /**
     * @param channels  channel name -> connected now, for every enabled channel (see {@link ChannelConnectivity});
     *                  {@code /readyz} also turns 503 once the gateway's shutdown has begun
     * @param storeOpen whether the session store is open
     */
    public OpsEndpoints(Gateway gateway, MetricsObserver metrics, Supplier<Map<String, Boolean>> channels,
                        BooleanSupplier storeOpen) {
        this(gateway, metrics, channels, storeOpen, List::of);
    }

    /** @param jobs the scheduled jobs' state now, for {@code /status} */
    public OpsEndpoints(Gateway gateway, MetricsObserver metrics, Supplier<Map<String, Boolean>> channels,
                        BooleanSupplier storeOpen, Supplier<List<JobStatus>> jobs) {
        this(gateway, metrics, channels, storeOpen, jobs, List::of);
    }

    /**
     * @param jobs      the scheduled jobs' state now, for {@code /status}
     * @param providers the provider pools now, for {@code /status} (docs/behaviour.md §14.6)
     */
    public OpsEndpoints(Gateway gateway, MetricsObserver metrics, Supplier<Map<String, Boolean>> channels,
                        BooleanSupplier storeOpen, Supplier<List<JobStatus>> jobs, Supplier<List<PoolSnapshot>> providers) {
        this(gateway, metrics, channels, storeOpen, () -> true, jobs, providers);
    }

    /** @param storeReachable as below; without a fleet section in {@code /status} */
    public OpsEndpoints(Gateway gateway, MetricsObserver metrics, Supplier<Map<String, Boolean>> channels,
                        BooleanSupplier storeOpen, BooleanSupplier storeReachable, Supplier<List<JobStatus>> jobs,
                        Supplier<List<PoolSnapshot>> providers) {
        this(gateway, metrics, channels, storeOpen, storeReachable, jobs, providers, () -> null);
    }

    /**
     * @param storeReachable false while the open store cannot reach its server (Redis down): {@code /readyz} 503
     * @param fleet          {@code /status}'s fleet section now, or null for a single instance (docs/behaviour.md §17)
     */
    public OpsEndpoints(Gateway gateway, MetricsObserver metrics, Supplier<Map<String, Boolean>> channels,
                        BooleanSupplier storeOpen, BooleanSupplier storeReachable, Supplier<List<JobStatus>> jobs,
                        Supplier<List<PoolSnapshot>> providers, Supplier<FleetView> fleet) {
        this.fleet = Objects.requireNonNull(fleet, "fleet");
        this.storeReachable = Objects.requireNonNull(storeReachable, "storeReachable");
        this.jobs = Objects.requireNonNull(jobs, "jobs");
        this.providers = Objects.requireNonNull(providers, "providers");
        this.gateway = Objects.requireNonNull(gateway, "gateway");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.channels = Objects.requireNonNull(channels, "channels");
        this.storeOpen = Objects.requireNonNull(storeOpen, "storeOpen");
    }

    /** path -> its answer, in the order the paths are documented. */
    Map<String, Supplier<OpsResponse>> routes() {
        Map<String, Supplier<OpsResponse>> routes = new LinkedHashMap<>();
        routes.put("/healthz", this::health);
        routes.put("/readyz", this::readiness);
        routes.put("/metrics", this::metrics);
        routes.put("/status", this::status);
        routes.put("/capabilities", this::capabilities);
        return routes;
    }

    OpsResponse health() {
        return OpsResponse.text(200, "ok\n");
    }

    OpsResponse readiness() {
        Readiness readiness = Readiness.of(gateway.shuttingDown(), storeOpen.getAsBoolean(),
                storeReachable.getAsBoolean(), channels.get());
        return OpsResponse.json(readiness.ready() ? 200 : 503, readiness);
    }

    OpsResponse metrics() {
        return new OpsResponse(200, MetricsObserver.CONTENT_TYPE, metrics.scrape().getBytes(StandardCharsets.UTF_8));
    }

    OpsResponse status() {
        return OpsResponse.json(200, StatusView.of(gateway, channels.get(), jobs.get(), providers.get(), fleet.get()));
    }

    OpsResponse capabilities() {
        return OpsResponse.json(200, CapabilitiesView.of(gateway.settings()));
    }
}
