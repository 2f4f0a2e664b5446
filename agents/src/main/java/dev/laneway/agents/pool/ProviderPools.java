package dev.laneway.agents.pool;

import dev.laneway.core.agent.settings.OpenAiSettings;
import dev.laneway.core.agent.settings.ProviderSettings;
import dev.laneway.core.scheduling.SchedulingSettings;
import dev.laneway.core.time.Scheduler;
import dev.laneway.core.fleet.FleetCaps;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * Every provider pool of one gateway (docs/behaviour.md §14.1), found by endpoint: the base URL, key
 * and model an agent calls, hashed ({@link ProviderSettings#endpointKey}). A {@code providers:} entry's
 * pool exists from the start with its limits; an agent calling an endpoint no entry names gets a pool
 * of its own without limits (but with the default circuit breaker), shared with any other agent
 * calling the same endpoint. In a fleet ({@link #fleetWide}) every pool's {@code maxConcurrent}
 * counts the calls of every instance (docs/behaviour.md §14.5, §17). Thread-safe: pools are made once
 * per endpoint in a concurrent map; the fleet's caps are set once, before any pool is used.
 */
public final class ProviderPools {

    private final SchedulingSettings scheduling;
    private final InstantSource clock;
    private final Scheduler timers;
    private final PoolObserver observer;
    private final Map<String, ProviderPool> byEndpoint = new ConcurrentHashMap<>();
    private record Fleet(FleetCaps caps, Executor executor, Duration retryEvery) {
    }
    private volatile Fleet fleet; // null: limits per instance

    /**
     * @param named      the {@code providers:} entries (distinct endpoints, checked by the config loader)
     * @param scheduling how waits are ordered (the same classes and fair share as {@code main})
     * @param timers     the pools' pauses and rate waits
     */
    public ProviderPools(Collection<ProviderSettings> named, SchedulingSettings scheduling, InstantSource clock,
                         Scheduler timers, PoolObserver observer) {
        this.scheduling = scheduling;
        this.clock = clock;
        this.timers = timers;
        this.observer = observer;
        for (ProviderSettings settings : named) {
            ProviderPool previous = byEndpoint.putIfAbsent(settings.endpointKey(), pool(settings));
            if (previous != null) {
                throw new IllegalArgumentException("providers " + previous.name() + " and " + settings.name()
                        + " name the same endpoint (base URL, key and model)");
            }
        }
    }

    /** No named providers, the default scheduling: each agent's endpoint its own pool (tests, tools). */
    public static ProviderPools unnamed(InstantSource clock, Scheduler timers) {
        return new ProviderPools(List.of(), SchedulingSettings.defaults(), clock, timers, PoolObserver.NONE);
    }

    /** The pool of the endpoint {@code agent} calls: the named one with those settings, else its own. */
    public ProviderPool poolFor(OpenAiSettings agent) {
        String key = ProviderSettings.endpointKey(agent.baseUrl(), agent.apiKey(), agent.model());
        return byEndpoint.computeIfAbsent(key, k -> pool(ProviderSettings.of(agent)));
    }

    /**
     * Makes every pool's {@code maxConcurrent} fleet-wide: its calls take permits of the fleet's cap
     * {@code provider:<pool>} (asked again every {@code retryEvery} while the fleet has none). Call
     * once, before any pool is used; pools made later are fleet-wide from the start.
     */
    public void fleetWide(FleetCaps caps, Executor executor, Duration retryEvery) {
        Fleet shared = new Fleet(java.util.Objects.requireNonNull(caps, "caps"),
                java.util.Objects.requireNonNull(executor, "executor"),
                java.util.Objects.requireNonNull(retryEvery, "retryEvery"));
        fleet = shared;
        byEndpoint.values().forEach(pool -> pool.fleetWide(shared.caps(), shared.executor(), shared.retryEvery()));
    }

    /** The pool called {@code name} (a {@code providers:} entry, or {@code agent:<name>}); null when none. */
    public ProviderPool pool(String name) {
        return byEndpoint.values().stream().filter(pool -> pool.name().equals(name)).findFirst().orElse(null);
    }

    public PoolObserver observer() {
        return observer;
    }

    /** Every pool now, by name. */
    public List<PoolSnapshot> snapshots() {
        List<PoolSnapshot> all = new ArrayList<>();
        byEndpoint.values().forEach(pool -> all.add(pool.snapshot()));
        all.sort(Comparator.comparing(PoolSnapshot::name));
        return all;
    }

    private ProviderPool pool(ProviderSettings settings) {
        ProviderPool pool = new ProviderPool(settings, scheduling, clock, timers, observer);
        Fleet shared = fleet;
        if (shared != null) {
            pool.fleetWide(shared.caps(), shared.executor(), shared.retryEvery());
        }
        return pool;
    }
}
