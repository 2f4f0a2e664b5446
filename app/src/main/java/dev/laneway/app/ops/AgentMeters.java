package dev.laneway.app.ops;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The meters of one agent: run duration and wait timers, outcome counters, retries, empty
 * answers. Thread-safe: Micrometer meters are, and an outcome not known up front gets its counter
 * via {@code computeIfAbsent}.
 */
final class AgentMeters {

    private final String agent;
    private final Timer duration;
    private final Timer wait;
    // outcome -> counter
    private final Map<String, Counter> outcomes = new ConcurrentHashMap<>();
    final Counter retries;
    final Counter emptyAnswers;

    private AgentMeters(String agent, Timer duration, Timer wait, Counter retries, Counter emptyAnswers) {
        this.agent = agent;
        this.duration = duration;
        this.wait = wait;
        this.retries = retries;
        this.emptyAnswers = emptyAnswers;
    }

    static AgentMeters register(MeterRegistry registry, String agent, Collection<String> knownOutcomes) {
        AgentMeters meters = new AgentMeters(agent,
                Timer.builder(MetricNames.RUN_DURATION).description("Run time from agent start to run end")
                        .tag("agent", agent).serviceLevelObjectives(Buckets.RUN).register(registry),
                Timer.builder(MetricNames.RUN_WAIT).description("Time from run creation to agent start (debounce and lane waits)")
                        .tag("agent", agent).serviceLevelObjectives(Buckets.WAIT).register(registry),
                Counter.builder(MetricNames.AGENT_RETRIES).description("Model calls an agent retried within a run (429, 5xx)")
                        .tag("agent", agent).register(registry),
                Counter.builder(MetricNames.EMPTY_ANSWERS)
                        .description("Runs that completed with an empty or blank answer (the user was told)")
                        .tag("agent", agent).register(registry));
        knownOutcomes.forEach(outcome -> meters.outcome(registry, outcome));
        return meters;
    }

    void finished(MeterRegistry registry, Duration waited, Duration took, String outcome) {
        wait.record(waited);
        duration.record(took);
        outcome(registry, outcome).increment();
    }

    private Counter outcome(MeterRegistry registry, String outcome) {
        return outcomes.computeIfAbsent(outcome, name -> Counter.builder(MetricNames.RUNS)
                .description("Finished runs by agent and outcome (completed, failed, aborted, reported)")
                .tag("agent", agent).tag("outcome", name).register(registry));
    }
}
