package dev.laneway.app.ops;

import dev.laneway.core.scheduling.PriorityClass;
import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.engine.Gateway;
import dev.laneway.core.engine.GatewayObserver;
import dev.laneway.core.engine.GatewayObserver.RunResult;
import dev.laneway.core.jobs.ScheduledJobs;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The engine's metrics, in a Micrometer {@link PrometheusMeterRegistry}; names in
 * {@link MetricNames}. Build it first, hand it to {@code Gateway.builder().observer(...)}, then
 * {@link #bind} the built gateway so the gauges have something to read.
 *
 * <p>Concurrency: the observer methods are called from engine, agent and channel threads,
 * sometimes under a session lock, so each one is a concurrent-map lookup plus a lock-free
 * Micrometer increment or record; nothing blocks. Meters for the channels and agents named at
 * construction exist from the start (at zero, so dashboards see every series); a name seen later
 * gets its meters on first use via {@code computeIfAbsent}. Gauges never touch the engine on their
 * own: {@link #scrape} takes one {@link GaugeSample} and every gauge reads that, so one scrape
 * costs one pass over the lanes and sessions.
 */
public final class MetricsObserver implements GatewayObserver {

    /** The content type of {@link #scrape}: the Prometheus text format. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private static final List<String> OUTCOMES = Stream.of(RunResult.values()).map(RunResult::id).toList();

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    // channel -> disposition -> counter
    private final Map<String, Map<Disposition, Counter>> inbound = new ConcurrentHashMap<>();
    // channel -> its outbound counters
    private final Map<String, ChannelMeters> outbound = new ConcurrentHashMap<>();
    // agent -> its run meters
    private final Map<String, AgentMeters> agents = new ConcurrentHashMap<>();
    // "from to reason" -> counter of runs that stepped down to a fallback agent
    private final Map<String, Counter> fallbacks = new ConcurrentHashMap<>();
    // lane -> wait timer (the engine reports configured lanes only)
    private final Map<String, Timer> laneWaits = new ConcurrentHashMap<>();
    private final Timer drainDelay;
    private final SchedulingMeters scheduling;
    private volatile GatewayGauges gauges;

    /**
     * @param channels the channels the gateway runs (their series start at zero)
     * @param agents   the agents' names (their series start at zero)
     */
    public MetricsObserver(Collection<String> channels, Collection<String> agents) {
        this(channels, agents, Map.of());
    }

    /**
     * As above, every meter carrying {@code commonTags}: in a fleet, {@code instance=<this instance's
     * id>} (docs/behaviour.md §17, docs/decisions.md D185). They are set before the first meter is
     * registered, so no series is without them.
     */
    public MetricsObserver(Collection<String> channels, Collection<String> agents, Map<String, String> commonTags) {
        commonTags.forEach((key, value) -> registry.config().commonTags(key, value));
        channels.forEach(this::inboundOf);
        channels.forEach(this::outboundOf);
        agents.forEach(this::agentOf);
        this.drainDelay = Timer.builder(MetricNames.DRAIN_DELAY)
                .description("How long a followup drain started after the last message was queued (debounce)")
                .serviceLevelObjectives(Buckets.DRAIN)
                .register(registry);
        this.scheduling = new SchedulingMeters(registry);
    }

    /**
     * Registers the gauges that read the built gateway: configured lanes (queued, active, cap),
     * pending messages and their limit, busy sessions by state, and channel connectivity.
     * Call once, after {@code Gateway.builder()...build()}.
     */
    public void bind(Gateway gateway, Supplier<Map<String, Boolean>> channels) {
        if (gauges != null) {
            throw new IllegalStateException("the metrics are already bound to a gateway");
        }
        gauges = new GatewayGauges(registry, gateway, channels);
    }

    /** Every metric in the Prometheus text format ({@link #CONTENT_TYPE}). */
    public String scrape() {
        GatewayGauges bound = gauges;
        if (bound != null) {
            bound.refresh();
        }
        return registry.scrape(CONTENT_TYPE);
    }

    /** The registry, for extra binders (JVM metrics) or tests. */
    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /**
     * Counts one scheduled job's fire ({@link MetricNames#SCHEDULE_FIRES}); a {@code ScheduledJobs.Listener}.
     * Thread-safe.
     */
    public void scheduleFired(String job, ScheduledJobs.Outcome outcome) {
        Counter.builder(MetricNames.SCHEDULE_FIRES).description("Scheduled jobs' fires by outcome")
                .tag("job", job).tag("outcome", outcome.name().toLowerCase(Locale.ROOT))
                .register(registry).increment();
    }

    // ---------------------------------------------------------------- GatewayObserver

    @Override
    public void recorded(InboundMessage message, Disposition disposition) {
        inboundOf(message.channel()).get(disposition).increment();
    }

    @Override
    public void runFinished(String agent, Duration waited, Duration duration, RunResult outcome) {
        agentOf(agent).finished(registry, waited, duration, outcome.id());
    }

    @Override
    public void granted(PriorityClass asked, PriorityClass served, String tenant, Duration waited, Duration estimated) {
        scheduling.granted(asked, served, tenant, waited, estimated);
    }

    @Override
    public void promoted(PriorityClass from, PriorityClass to) {
        scheduling.promoted(from, to);
    }

    @Override
    public void admission(PriorityClass priority, String action, String reason) {
        scheduling.admission(priority, action, reason);
    }

    @Override
    public void fallback(String from, String to, String reason) {
        fallbacks.computeIfAbsent(from + '\u0000' + to + '\u0000' + reason, key -> Counter.builder(MetricNames.FALLBACKS)
                .description("Runs that continued on a fallback agent, by the agent left, the one taken and why"
                        + " (degrade, unavailable, retries_exhausted)")
                .tag("from", from).tag("to", to).tag("reason", reason)
                .register(registry)).increment();
    }

    @Override
    public void laneWaited(String lane, Duration waited) {
        laneWaits.computeIfAbsent(lane, name -> Timer.builder(MetricNames.LANE_WAIT)
                .description("How long a run waited for a slot in a configured lane")
                .tag("lane", name)
                .serviceLevelObjectives(Buckets.WAIT)
                .register(registry)).record(waited);
    }

    @Override
    public void drainDelayed(Duration delay) {
        drainDelay.record(delay);
    }

    @Override
    public void sent(String channel) {
        outboundOf(channel).sent.increment();
    }

    @Override
    public void sendFailed(String channel) {
        outboundOf(channel).failed.increment();
    }

    @Override
    public void rateLimited(String channel) {
        outboundOf(channel).rateLimited.increment();
    }

    @Override
    public void agentRetried(String agent) {
        agentOf(agent).retries.increment();
    }

    @Override
    public void emptyAnswer(String agent) {
        agentOf(agent).emptyAnswers.increment();
    }

    // ---------------------------------------------------------------- meters per tag value

    private Map<Disposition, Counter> inboundOf(String channel) {
        return inbound.computeIfAbsent(channel, name -> {
            Map<Disposition, Counter> counters = new EnumMap<>(Disposition.class);
            for (Disposition disposition : Disposition.values()) {
                counters.put(disposition, Counter.builder(MetricNames.INBOUND)
                        .description("Inbound messages by channel and how they ended (one disposition each)")
                        .tag("channel", name).tag("disposition", disposition.name())
                        .register(registry));
            }
            return counters;
        });
    }

    private ChannelMeters outboundOf(String channel) {
        return outbound.computeIfAbsent(channel, name -> new ChannelMeters(
                Counter.builder(MetricNames.OUTBOUND).description("Reply chunks handed to a channel")
                        .tag("channel", name).register(registry),
                Counter.builder(MetricNames.OUTBOUND_FAILED)
                        .description("Reply chunks a channel finally failed to send, after its own retries (lost)")
                        .tag("channel", name).register(registry),
                Counter.builder(MetricNames.RATE_LIMITED).description("Times a platform told a channel to slow down (429)")
                        .tag("channel", name).register(registry)));
    }

    private AgentMeters agentOf(String agent) {
        return agents.computeIfAbsent(agent, name -> AgentMeters.register(registry, name, OUTCOMES));
    }

    /** Outbound counters of one channel. */
    private record ChannelMeters(Counter sent, Counter failed, Counter rateLimited) {
    }
}
