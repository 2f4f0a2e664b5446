package dev.laneway.app.ops;

import dev.laneway.agents.pool.PoolObserver;
import dev.laneway.agents.pool.Usage;
import dev.laneway.core.scheduling.PriorityClass;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The provider pools' metrics (docs/behaviour.md §14.6): tokens by agent, tenant and kind; the wait
 * for a pool's permit by pool and class (queue wait, beside {@code main}'s); 429 pauses, runs failed
 * fast, circuit transitions, and an adaptive pool's limit. Tenant labels are bounded as the
 * scheduler's are ({@link SchedulingMeters#MAX_TENANT_SERIES} tenants, then {@code other}).
 * Thread-safe: meters are made once per label set in concurrent maps.
 */
public final class ProviderMeters implements PoolObserver {

    private static final String OTHER = "other";

    private final MeterRegistry registry;
    private final Map<String, Counter> tokens = new ConcurrentHashMap<>();
    private final Set<String> tenants = ConcurrentHashMap.newKeySet();
    private final Map<String, Timer> waits = new ConcurrentHashMap<>();
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> limits = new ConcurrentHashMap<>();

    public ProviderMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void tokens(String agent, String tenant, Usage usage) {
        String label = tenantLabel(tenant);
        tokensOf(agent, label, "prompt").increment(usage.prompt());
        tokensOf(agent, label, "completion").increment(usage.completion());
    }

    private String tenantLabel(String tenant) {
        if (tenants.contains(tenant)) {
            return tenant;
        }
        if (tenants.size() < SchedulingMeters.MAX_TENANT_SERIES) {
            tenants.add(tenant);
            return tenant;
        }
        return OTHER;
    }

    private Counter tokensOf(String agent, String tenant, String kind) {
        return tokens.computeIfAbsent(agent + "|" + tenant + "|" + kind, key -> Counter.builder(MetricNames.TOKENS)
                .description("Tokens model calls used, as the provider reported them (prompt, completion)")
                .tag("agent", agent).tag("tenant", tenant).tag("kind", kind)
                .register(registry));
    }

    @Override
    public void waited(String pool, PriorityClass priority, Duration waited) {
        waits.computeIfAbsent(pool + "|" + priority.configName(), key -> Timer.builder(MetricNames.PROVIDER_WAIT)
                .description("How long a model call waited for its provider pool's permit (queue wait)")
                .tag("provider", pool).tag("class", priority.configName())
                .serviceLevelObjectives(Buckets.WAIT)
                .register(registry)).record(waited);
    }

    @Override
    public void rateLimited(String pool, Duration pause) {
        counter(MetricNames.PROVIDER_RATE_LIMITED, "429s that paused the provider pool", pool, null).increment();
    }

    @Override
    public void failedFast(String pool) {
        counter(MetricNames.PROVIDER_FAILED_FAST, "Runs failed at once because the pool's circuit was open", pool, null)
                .increment();
    }

    @Override
    public void circuit(String pool, String state) {
        counter(MetricNames.PROVIDER_CIRCUIT, "The pool's circuit breaker moving to a state", pool, state).increment();
    }

    @Override
    public void limit(String pool, int limit) {
        limits.computeIfAbsent(pool, name -> {
            AtomicInteger value = new AtomicInteger();
            Gauge.builder(MetricNames.PROVIDER_LIMIT, value, AtomicInteger::get)
                    .description("The provider pool's adaptive concurrency limit now")
                    .tag("provider", name).register(registry);
            return value;
        }).set(limit);
    }

    private Counter counter(String name, String description, String pool, String state) {
        return counters.computeIfAbsent(name + "|" + pool + "|" + state, key -> {
            Counter.Builder builder = Counter.builder(name).description(description).tag("provider", pool);
            if (state != null) {
                builder.tag("state", state);
            }
            return builder.register(registry);
        });
    }
}
