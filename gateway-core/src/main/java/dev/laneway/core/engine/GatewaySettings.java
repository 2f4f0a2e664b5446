package dev.laneway.core.engine;

import dev.laneway.core.QueueOverride;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.SessionScope;
import dev.laneway.core.SteerScope;
import dev.laneway.core.scheduling.SchedulingSettings;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Everything the engine needs from the configuration, validated. The config module builds it
 * from YAML; tests build it with {@link #builder()}.
 *
 * @param queueDefaults     the global {@code messages.queue} settings layer
 * @param queueByChannel    {@code messages.queue.byChannel}: channel -> its settings layer
 * @param queueMaxWait      bound on a drain's total wait from the first queued message; null means
 *                          10 x the effective debounce, zero means no bound
 * @param queueCapPerSender {@code messages.queue.capPerSender}: a group sender's part of the cap; null
 *                          means half the cap, rounded up; 0 means none (see {@link #capPerSenderFor})
 * @param notifyDrops       whether senders are told about drops and rejections
 * @param queueTtl          queued messages older than this are not run after a restart
 * @param inboundDebounce   idle-session inbound debounce (zero = off)
 * @param inboundMaxWait    bound on the inbound debounce's total wait from the first buffered message;
 *                          null means 10 x the effective inbound debounce, zero means no bound
 * @param inboundByChannel  channel -> its inbound debounce
 * @param steerScope        who may steer an active run
 * @param sessionScope      how messages map to sessions
 * @param mainMaxConcurrent cap of the global {@code main} lane
 * @param laneCaps          caps of other named lanes ({@code subagent}, {@code cron}, {@code fallback}, ...)
 * @param laneWarnAfter     a lane wait longer than this logs one line
 * @param maxPendingRuns    global admission cap on accepted, unfinished messages; 0 disables it
 * @param commandAllowFrom  channel -> sender ids allowed to use commands
 * @param failureRetries    how often a failed turn is tried again
 * @param retryBackoff      the first retry's delay; each further one doubles it
 * @param interruptGrace    how long an interrupted run may take to stop before the sender is told
 * @param dedupeWindow      how long a platform message id is remembered
 * @param maxAnswerChars    the most characters of one run's answer that are sent; the rest is cut
 *                          and the user told so
 * @param scheduling        how {@code main} shares its slots: classes, tenants, budgets (docs/behaviour.md §11)
 */
public record GatewaySettings(
        QueueSettings queueDefaults,
        Map<String, QueueOverride> queueByChannel,
        Duration queueMaxWait,
        Integer queueCapPerSender,
        boolean notifyDrops,
        Duration queueTtl,
        Duration inboundDebounce,
        Duration inboundMaxWait,
        Map<String, Duration> inboundByChannel,
        SteerScope steerScope,
        SessionScope sessionScope,
        int mainMaxConcurrent,
        Map<String, Integer> laneCaps,
        Duration laneWarnAfter,
        int maxPendingRuns,
        Map<String, Set<String>> commandAllowFrom,
        int failureRetries,
        Duration retryBackoff,
        Duration interruptGrace,
        Duration dedupeWindow,
        int maxAnswerChars,
        SchedulingSettings scheduling) {

    /** The smallest {@code maxAnswerChars}: room for a sentence or two. */
    public static final int MIN_ANSWER_CHARS = 100;
    /** The default {@code maxAnswerChars}: about five Telegram messages, ten Discord ones. */
    public static final int DEFAULT_ANSWER_CHARS = 20_000;

    public GatewaySettings {
        Objects.requireNonNull(queueDefaults, "queueDefaults");
        queueByChannel = Map.copyOf(queueByChannel);
        requireNotNegative("queueMaxWait", queueMaxWait == null ? Duration.ZERO : queueMaxWait);
        if (queueCapPerSender != null && (queueCapPerSender < 0 || queueCapPerSender > queueDefaults.cap())) {
            throw new IllegalArgumentException("messages.queue.capPerSender must be between 0 and messages.queue.cap ("
                    + queueDefaults.cap() + "), got " + queueCapPerSender);
        }
        requireNotNegative("queueTtl", queueTtl);
        requireNotNegative("inboundDebounce", inboundDebounce);
        requireNotNegative("inboundMaxWait", inboundMaxWait == null ? Duration.ZERO : inboundMaxWait);
        inboundByChannel = Map.copyOf(inboundByChannel);
        Objects.requireNonNull(steerScope, "steerScope");
        Objects.requireNonNull(sessionScope, "sessionScope");
        if (mainMaxConcurrent < 1) {
            throw new IllegalArgumentException("agents.defaults.maxConcurrent must be >= 1, got " + mainMaxConcurrent);
        }
        laneCaps = Map.copyOf(laneCaps);
        laneCaps.forEach((lane, cap) -> {
            if (cap < 1) {
                throw new IllegalArgumentException("lanes." + lane + ".maxConcurrent must be >= 1, got " + cap);
            }
        });
        requireNotNegative("laneWarnAfter", laneWarnAfter);
        if (maxPendingRuns < 0) {
            throw new IllegalArgumentException("gateway.admission.maxPendingRuns must be >= 0, got " + maxPendingRuns);
        }
        commandAllowFrom = Map.copyOf(commandAllowFrom);
        if (failureRetries < 0) {
            throw new IllegalArgumentException("failureRetries must be >= 0, got " + failureRetries);
        }
        requireNotNegative("retryBackoff", retryBackoff);
        requireNotNegative("interruptGrace", interruptGrace);
        requireNotNegative("dedupeWindow", dedupeWindow);
        if (maxAnswerChars < MIN_ANSWER_CHARS) {
            throw new IllegalArgumentException("messages.maxAnswerChars must be >= " + MIN_ANSWER_CHARS + ", got "
                    + maxAnswerChars);
        }
        Objects.requireNonNull(scheduling, "scheduling");
    }

    private static void requireNotNegative(String name, Duration value) {
        Objects.requireNonNull(value, name);
        if (value.isNegative()) {
            throw new IllegalArgumentException(name + " must be >= 0, got " + value.toMillis() + "ms");
        }
    }

    /**
     * A group sender's part of {@code cap} (docs/behaviour.md §5.4): {@code messages.queue.capPerSender},
     * or half the cap rounded up when unset; 0 (none) when it is 0 or not below the cap.
     */
    public int capPerSenderFor(int cap) {
        return capPerSenderPart(queueCapPerSender, cap);
    }

    /** {@link #capPerSenderFor} for a given {@code capPerSender} (null = half the cap). */
    static int capPerSenderPart(Integer capPerSender, int cap) {
        int part = capPerSender == null ? cap - cap / 2 : capPerSender;
        return part < cap ? part : 0;
    }

    /** The inbound debounce's bound for a channel whose effective inbound debounce is {@code debounce} (zero = none). */
    public Duration inboundMaxWaitFor(Duration debounce) {
        if (inboundMaxWait != null) {
            return inboundMaxWait;
        }
        return debounce.isZero() ? Duration.ZERO : debounce.multipliedBy(10); // multipliedBy computes in BigDecimal
    }

    public static GatewaySettings defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.queueDefaults = queueDefaults;
        b.queueByChannel = queueByChannel;
        b.queueMaxWait = queueMaxWait;
        b.queueCapPerSender = queueCapPerSender;
        b.notifyDrops = notifyDrops;
        b.queueTtl = queueTtl;
        b.inboundDebounce = inboundDebounce;
        b.inboundMaxWait = inboundMaxWait;
        b.inboundByChannel = inboundByChannel;
        b.steerScope = steerScope;
        b.sessionScope = sessionScope;
        b.mainMaxConcurrent = mainMaxConcurrent;
        b.laneCaps = laneCaps;
        b.laneWarnAfter = laneWarnAfter;
        b.maxPendingRuns = maxPendingRuns;
        b.commandAllowFrom = commandAllowFrom;
        b.failureRetries = failureRetries;
        b.retryBackoff = retryBackoff;
        b.interruptGrace = interruptGrace;
        b.dedupeWindow = dedupeWindow;
        b.maxAnswerChars = maxAnswerChars;
        b.scheduling = scheduling;
        return b;
    }

    /** Builder with the defaults (docs/configuration.md §11, §12). */
    public static final class Builder {
        private QueueSettings queueDefaults = QueueSettings.DEFAULTS;
        private Map<String, QueueOverride> queueByChannel = Map.of();
        private Duration queueMaxWait;
        private Integer queueCapPerSender;
        private boolean notifyDrops = true;
        private Duration queueTtl = Duration.ofHours(1);
        private Duration inboundDebounce = Duration.ZERO;
        private Duration inboundMaxWait;
        private Map<String, Duration> inboundByChannel = Map.of();
        private SteerScope steerScope = SteerScope.SESSION;
        private SessionScope sessionScope = SessionScope.DEFAULTS;
        private int mainMaxConcurrent = 4;
        private Map<String, Integer> laneCaps = Map.of("subagent", 8, "cron", 1, "fallback", 4);
        private Duration laneWarnAfter = Duration.ofMillis(2000);
        private int maxPendingRuns = 1000;
        private Map<String, Set<String>> commandAllowFrom = Map.of();
        private int failureRetries = 2;
        private Duration retryBackoff = Duration.ofSeconds(1);
        private Duration interruptGrace = Duration.ofSeconds(15);
        private Duration dedupeWindow = Duration.ofMinutes(5);
        private int maxAnswerChars = DEFAULT_ANSWER_CHARS;
        private SchedulingSettings scheduling = SchedulingSettings.defaults();

        public Builder queueDefaults(QueueSettings v) { queueDefaults = v; return this; }
        public Builder queueByChannel(Map<String, QueueOverride> v) { queueByChannel = v; return this; }
        public Builder queueMaxWait(Duration v) { queueMaxWait = v; return this; }
        public Builder queueCapPerSender(Integer v) { queueCapPerSender = v; return this; }
        public Builder notifyDrops(boolean v) { notifyDrops = v; return this; }
        public Builder queueTtl(Duration v) { queueTtl = v; return this; }
        public Builder inboundDebounce(Duration v) { inboundDebounce = v; return this; }
        public Builder inboundMaxWait(Duration v) { inboundMaxWait = v; return this; }
        public Builder inboundByChannel(Map<String, Duration> v) { inboundByChannel = v; return this; }
        public Builder steerScope(SteerScope v) { steerScope = v; return this; }
        public Builder sessionScope(SessionScope v) { sessionScope = v; return this; }
        public Builder mainMaxConcurrent(int v) { mainMaxConcurrent = v; return this; }
        public Builder laneCaps(Map<String, Integer> v) { laneCaps = v; return this; }
        public Builder laneWarnAfter(Duration v) { laneWarnAfter = v; return this; }
        public Builder maxPendingRuns(int v) { maxPendingRuns = v; return this; }
        public Builder commandAllowFrom(Map<String, Set<String>> v) { commandAllowFrom = v; return this; }
        public Builder failureRetries(int v) { failureRetries = v; return this; }
        public Builder retryBackoff(Duration v) { retryBackoff = v; return this; }
        public Builder interruptGrace(Duration v) { interruptGrace = v; return this; }
        public Builder dedupeWindow(Duration v) { dedupeWindow = v; return this; }
        public Builder maxAnswerChars(int v) { maxAnswerChars = v; return this; }
        public Builder scheduling(SchedulingSettings v) { scheduling = v; return this; }

        public GatewaySettings build() {
            return new GatewaySettings(queueDefaults, queueByChannel, queueMaxWait, queueCapPerSender, notifyDrops, queueTtl,
                    inboundDebounce, inboundMaxWait, inboundByChannel, steerScope, sessionScope,
                    mainMaxConcurrent, laneCaps, laneWarnAfter, maxPendingRuns, commandAllowFrom,
                    failureRetries, retryBackoff, interruptGrace, dedupeWindow, maxAnswerChars, scheduling);
        }
    }
}
