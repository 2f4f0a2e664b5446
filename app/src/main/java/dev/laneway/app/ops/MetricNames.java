package dev.laneway.app.ops;

/**
 * Every metric name, in Micrometer's dotted form; the Prometheus names (in brackets) follow the
 * Prometheus conventions: {@code _total} on counters, {@code _seconds} on timers.
 */
public final class MetricNames {

    /** {@code laneway_inbound_messages_total{channel,disposition}}: how each inbound message ended. */
    public static final String INBOUND = "laneway.inbound.messages";
    /** {@code laneway_outbound_messages_total{channel}}: reply chunks handed to a channel. */
    public static final String OUTBOUND = "laneway.outbound.messages";
    /** {@code laneway_outbound_failed_total{channel}}: reply chunks a channel finally failed to send (lost). */
    public static final String OUTBOUND_FAILED = "laneway.outbound.failed";
    /** {@code laneway_outbound_rate_limited_total{channel}}: 429s (or equivalent) from a platform. */
    public static final String RATE_LIMITED = "laneway.outbound.rate.limited";
    /** {@code laneway_runs_total{agent,outcome}}: finished runs by outcome. */
    public static final String RUNS = "laneway.runs";
    /** {@code laneway_run_duration_seconds{agent}}: from agent start to run end (histogram). */
    public static final String RUN_DURATION = "laneway.run.duration";
    /** {@code laneway_run_wait_seconds{agent}}: from run creation to agent start (histogram). */
    public static final String RUN_WAIT = "laneway.run.wait";
    /** {@code laneway_agent_retries_total{agent}}: model calls retried within a run. */
    public static final String AGENT_RETRIES = "laneway.agent.retries";
    /** {@code laneway_agent_empty_answers_total{agent}}: runs that completed without a word for the user. */
    public static final String EMPTY_ANSWERS = "laneway.agent.empty.answers";
    /** {@code laneway_agent_fallbacks_total{from,to,reason}}: runs that stepped down to a fallback agent (docs/behaviour.md §13). */
    public static final String FALLBACKS = "laneway.agent.fallbacks";
    /** {@code laneway_lane_wait_seconds{lane}}: wait for a slot in a configured lane (histogram). */
    public static final String LANE_WAIT = "laneway.lane.wait";
    /** {@code laneway_drain_delay_seconds}: last queued message to followup drain (debounce). */
    public static final String DRAIN_DELAY = "laneway.drain.delay";
    /** {@code laneway_lane_queued{lane}}: runs waiting for a slot in a configured lane. */
    public static final String LANE_QUEUED = "laneway.lane.queued";
    /** {@code laneway_lane_active{lane}}: runs holding a slot in a configured lane. */
    public static final String LANE_ACTIVE = "laneway.lane.active";
    /** {@code laneway_lane_capacity{lane}}: the configured lane's cap. */
    public static final String LANE_CAPACITY = "laneway.lane.capacity";
    /** {@code laneway_pending_messages}: accepted messages not finished (the admission counter). */
    public static final String PENDING = "laneway.pending.messages";
    /** {@code laneway_pending_messages_limit}: {@code maxPendingRuns}; absent when the cap is off. */
    public static final String PENDING_LIMIT = "laneway.pending.messages.limit";
    /** {@code laneway_sessions{state}}: busy sessions by state (running, draining, debouncing). */
    public static final String SESSIONS = "laneway.sessions";
    /** {@code laneway_channel_connected{channel}}: 1 when the channel is connected, else 0. */
    public static final String CHANNEL_CONNECTED = "laneway.channel.connected";

    /** {@code laneway_queue_wait_seconds{class}}: a run's wait for {@code main}, by the class it asked in (histogram). */
    public static final String QUEUE_WAIT = "laneway.queue.wait";
    /** {@code laneway_scheduled_runs_total{class,tenant}}: runs granted {@code main}, by class served and tenant. */
    public static final String SCHEDULED_RUNS = "laneway.scheduled.runs";
    /** {@code laneway_admission_total{class,action,reason}}: messages deferred or shed at admission. */
    public static final String ADMISSION = "laneway.admission";
    /** {@code laneway_aging_promotions_total{from,to}}: waiting runs moved up a class. */
    public static final String PROMOTIONS = "laneway.aging.promotions";
    /** {@code laneway_wait_estimate_error_seconds{class}}: |actual − estimated| wait for {@code main} (summary). */
    public static final String ESTIMATE_ERROR = "laneway.wait.estimate.error";
    /** {@code laneway_wait_estimates_total{class,direction}}: estimates that were under, over or exact. */
    public static final String ESTIMATES = "laneway.wait.estimates";
    /**
     * {@code laneway_schedule_fires_total{job,outcome}}: scheduled jobs' fires by outcome ({@code posted},
     * {@code caught_up}, {@code skipped_busy}, {@code missed}, {@code failed}).
     */
    public static final String SCHEDULE_FIRES = "laneway.schedule.fires";

    private MetricNames() {
    }

    /** Tokens the model calls used, by agent, tenant (bounded) and kind (prompt, completion). */
    public static final String TOKENS = "laneway.tokens";
    /** How long a model call waited for its provider pool's permit, by pool and class (queue wait too). */
    public static final String PROVIDER_WAIT = "laneway.provider.wait";
    /** 429s that paused a provider pool. */
    public static final String PROVIDER_RATE_LIMITED = "laneway.provider.rate.limited";
    /** Runs that failed at once because their pool's circuit was open. */
    public static final String PROVIDER_FAILED_FAST = "laneway.provider.failed.fast";
    /** A pool's circuit breaker changing state. */
    public static final String PROVIDER_CIRCUIT = "laneway.provider.circuit.transitions";
    /** A pool's concurrency limit now (adaptive pools). */
    public static final String PROVIDER_LIMIT = "laneway.provider.limit";
}
