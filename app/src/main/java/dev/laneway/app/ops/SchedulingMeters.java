package dev.laneway.app.ops;

import dev.laneway.core.scheduling.PriorityClass;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The scheduler's metrics (docs/behaviour.md §11.4): queue wait per class, runs per class and tenant,
 * admission decisions, aging promotions, and how far wait estimates were off. Tenant labels are
 * bounded: past {@link #MAX_TENANT_SERIES} distinct tenants, further ones count as {@code other}, so a
 * bot with many DM users cannot flood the scrape. Thread-safe: meters are made once per label set in
 * concurrent maps; Micrometer's meters are thread-safe.
 */
final class SchedulingMeters {

    static final int MAX_TENANT_SERIES = 200;
    private static final String OTHER = "other";

    private final MeterRegistry registry;
    private final Map<PriorityClass, Timer> waits = new ConcurrentHashMap<>();
    private final Map<String, Counter> runs = new ConcurrentHashMap<>();
    private final Map<String, Counter> admissions = new ConcurrentHashMap<>();
    private final Map<String, Counter> promotions = new ConcurrentHashMap<>();
    private final Map<PriorityClass, DistributionSummary> errors = new ConcurrentHashMap<>();
    private final Map<String, Counter> estimates = new ConcurrentHashMap<>();

    SchedulingMeters(MeterRegistry registry) {
        this.registry = registry;
        for (PriorityClass priority : PriorityClass.values()) {
            waitOf(priority); // every class's series starts at zero
        }
    }

    void granted(PriorityClass asked, PriorityClass served, String tenant, Duration waited, Duration estimated) {
        waitOf(asked).record(waited);
        runsOf(served, tenant).increment();
        double error = (waited.toMillis() - estimated.toMillis()) / 1000.0;
        errors.computeIfAbsent(asked, c -> DistributionSummary.builder(MetricNames.ESTIMATE_ERROR)
                .description("How far the wait estimate for main was off (absolute)")
                .baseUnit("seconds")
                .tag("class", c.configName())
                .register(registry)).record(Math.abs(error));
        String direction = error > 0 ? "under" : error < 0 ? "over" : "exact";
        estimates.computeIfAbsent(asked.configName() + "|" + direction, key -> Counter.builder(MetricNames.ESTIMATES)
                .description("Wait estimates for main by whether the run waited longer (under) or shorter (over)")
                .tag("class", asked.configName())
                .tag("direction", direction)
                .register(registry)).increment();
    }

    void promoted(PriorityClass from, PriorityClass to) {
        promotions.computeIfAbsent(from.configName() + "|" + to.configName(), key -> Counter.builder(MetricNames.PROMOTIONS)
                .description("Waiting runs moved up a class after the aging bound")
                .tag("from", from.configName())
                .tag("to", to.configName())
                .register(registry)).increment();
    }

    void admission(PriorityClass priority, String action, String reason) {
        admissions.computeIfAbsent(priority.configName() + "|" + action + "|" + reason, key -> Counter.builder(MetricNames.ADMISSION)
                .description("Messages deferred or shed at admission")
                .tag("class", priority.configName())
                .tag("action", action)
                .tag("reason", reason)
                .register(registry)).increment();
    }

    private Timer waitOf(PriorityClass priority) {
        return waits.computeIfAbsent(priority, c -> Timer.builder(MetricNames.QUEUE_WAIT)
                .description("How long a run waited for a slot of main, by the class it asked in")
                .tag("class", c.configName())
                .serviceLevelObjectives(Buckets.WAIT)
                .register(registry));
    }

    private Counter runsOf(PriorityClass served, String tenant) {
        String key = served.configName() + "|" + tenant;
        Counter counter = runs.get(key);
        if (counter != null) {
            return counter;
        }
        String label = runs.size() < MAX_TENANT_SERIES * PriorityClass.COUNT ? tenant : OTHER;
        return runs.computeIfAbsent(label.equals(OTHER) ? served.configName() + "|" + OTHER : key,
                k -> Counter.builder(MetricNames.SCHEDULED_RUNS)
                        .description("Runs granted a slot of main, by the class they were served in and tenant")
                        .tag("class", served.configName())
                        .tag("tenant", label)
                        .register(registry));
    }
}
