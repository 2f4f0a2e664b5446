package dev.laneway.agents.pool;

import dev.laneway.core.agent.settings.OpenAiSettings;
import dev.laneway.core.agent.settings.ProviderSettings;
import dev.laneway.core.scheduling.SchedulingSettings;
import dev.laneway.core.time.Scheduler;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every provider pool of one gateway (docs/behaviour.md §14.1), found by endpoint: the base URL, key
 * and model an agent calls, hashed ({@link ProviderSettings#endpointKey}). A {@code providers:} entry's
 * pool exists from the start with its limits; an agent calling an endpoint no entry names gets a pool
 * of its own without limits (but with the default circuit breaker), shared with any other agent
 * calling the same endpoint. Thread-safe: pools are made once per endpoint in a concurrent map.
 */
public final class ProviderPools {

    private final SchedulingSettings scheduling;
    private final InstantSource clock;
    private final Scheduler timers;
    private final PoolObserver observer;
    private final Map<String, ProviderPool> byEndpoint = new ConcurrentHashMap<>();

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
        return new ProviderPool(settings, scheduling, clock, timers, observer);
    }
}
