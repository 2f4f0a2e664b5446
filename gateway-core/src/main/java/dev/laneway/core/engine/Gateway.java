package dev.laneway.core.engine;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueOverride;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.SessionKey;
import dev.laneway.core.agent.Agent;
import dev.laneway.core.channel.ChannelAdapter;
import dev.laneway.core.channel.InboundSink;
import dev.laneway.core.command.CommandContext;
import dev.laneway.core.command.CommandDecision;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.command.GatewayControl;
import dev.laneway.core.command.SessionStatus;
import dev.laneway.core.lane.LaneSnapshot;
import dev.laneway.core.lane.Lanes;
import dev.laneway.core.store.SessionStore;
import dev.laneway.core.time.Scheduler;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's front door. {@link #accept} takes one inbound message and returns at once:
 * dedupe, access policy, commands, settings resolution, admission, then the session's
 * {@link SessionQueue} decides (run now, steer, queue, interrupt). Also the {@link GatewayControl}
 * that chat commands use.
 *
 * <p>Concurrency: {@code accept} may be called from any number of SDK threads; each session's
 * state is guarded by its own lock (see {@link SessionQueue}). Messages of one chat keep their
 * order as long as the channel delivers them from one thread, which every SDK does.
 */
public final class Gateway implements InboundSink, GatewayControl {

    private static final Logger log = LoggerFactory.getLogger(Gateway.class);

    private final GatewaySettings settings;
    private final EngineContext ctx;
    private final SessionStore store;
    private final CommandHandler commands;
    private final AccessPolicy access;
    private final Authorization authorization;
    private final DedupeCache dedupe;
    private final GatewayObserver observer;
    private final Map<String, ChannelAdapter> channels;
    private final AtomicLong sequence = new AtomicLong();
    private volatile boolean accepting = true;

    private Gateway(Builder b) {
        this.settings = b.settings;
        this.store = b.store;
        this.commands = b.commands;
        this.access = b.access;
        this.observer = ObserverFanout.of(b.listener, b.observer);
        this.channels = Map.copyOf(b.channels);
        this.authorization = new Authorization(settings.commandAllowFrom());
        this.dedupe = new DedupeCache(settings.dedupeWindow());
        Map<String, Integer> caps = new HashMap<>(settings.laneCaps());
        caps.put(Lanes.MAIN, settings.mainMaxConcurrent());
        Lanes lanes = new Lanes(caps, b.clock, settings.laneWarnAfter(), observer::laneWaited);
        Outbox outbox = new Outbox(b.executor, this.channels::get, observer);
        Admission admission = new Admission(settings.maxPendingRuns(), settings.mainMaxConcurrent());
        Agent agent = b.agent;
        this.ctx = new EngineContext(settings, b.clock, b.scheduler, b.executor, lanes, outbox, admission,
                session -> agent, this.channels::get, observer);
    }

    public static Builder builder() {
        return new Builder();
    }

    // ---------------------------------------------------------------- inbound

    @Override
    public void rateLimited(String channel) {
        observer.rateLimited(channel);
    }

    @Override
    public void accept(InboundMessage message) {
        try {
            route(message);
        } catch (RuntimeException e) {
            log.error("inbound message from {} could not be handled", message.channel(), e);
        }
    }

    private void route(InboundMessage message) {
        Instant now = ctx.clock.instant();
        if (!dedupe.firstSighting(message, now)) {
            record(message, Disposition.DUPLICATE);
            return;
        }
        if (!access.allows(message)) {
            record(message, Disposition.DENIED);
            return;
        }
        SessionKey session = settings.sessionScope().keyOf(message);
        boolean trusted = authorization.trusted(message);
        InboundMessage effective = message;
        QueueOverride inline = QueueOverride.NONE;
        if (message.text().startsWith("/")) {
            flushInbound(session, message.senderId());
            CommandDecision decision = decide(message, session, trusted);
            switch (decision) {
                case CommandDecision.Reply reply -> {
                    ctx.outbox.send(message.route(), reply.text());
                    record(message, Disposition.COMMAND);
                    return;
                }
                case CommandDecision.Inline directive -> {
                    if (directive.notice() != null) {
                        ctx.outbox.send(message.route(), directive.notice());
                    }
                    effective = message.withText(directive.text());
                    inline = directive.override();
                }
                case CommandDecision.NotACommand none -> { }
            }
        }
        if (!accepting || !ctx.admission.tryAdmit()) {
            record(message, Disposition.REJECTED_BUSY);
            ctx.outbox.send(message.route(), Notices.busy(ctx.admission.retryAfterSeconds()));
            return;
        }
        Ticket ticket = new Ticket(sequence.incrementAndGet(), message, true);
        QueueSettings resolved = resolve(session, message.channel(), inline);
        QueuedItem item = new QueuedItem(ticket.seq(), List.of(ticket), effective.text(), resolved,
                resolved.mode(), trusted);
        Duration inboundDebounce = settings.inboundByChannel().getOrDefault(message.channel(), settings.inboundDebounce());
        while (!sessionQueue(session).accept(item, inboundDebounce, settings.inboundMaxWait())) {
            Thread.onSpinWait();
        }
    }

    private CommandDecision decide(InboundMessage message, SessionKey session, boolean trusted) {
        try {
            CommandDecision decision = commands.handle(message, new CommandContext(session, trusted, this));
            return decision == null ? CommandDecision.NOT_A_COMMAND : decision;
        } catch (RuntimeException e) {
            log.error("command handler failed on a message from {}", message.channel(), e);
            return new CommandDecision.Reply(Notices.failure("command failed"));
        }
    }

    private void flushInbound(SessionKey session, String senderId) {
        SessionQueue queue = ctx.sessions.get(session);
        if (queue != null) {
            queue.flushInbound(senderId);
        }
    }

    private SessionQueue sessionQueue(SessionKey session) {
        return ctx.sessions.computeIfAbsent(session, key -> new SessionQueue(key, ctx));
    }

    private void record(InboundMessage message, Disposition disposition) {
        try {
            observer.recorded(message, disposition);
        } catch (RuntimeException e) {
            log.warn("disposition listener failed", e);
        }
    }

    /** Settings resolution, first hit wins: inline, session override, byChannel, global, defaults. */
    private QueueSettings resolve(SessionKey session, String channel, QueueOverride inline) {
        QueueSettings resolved = settings.queueDefaults().with(settings.queueByChannel().get(channel));
        resolved = resolved.with(store.queueOverride(session).orElse(null));
        return resolved.with(inline);
    }

    // ---------------------------------------------------------------- GatewayControl

    @Override
    public QueueSettings effectiveSettings(SessionKey session, String channel) {
        return resolve(session, channel, QueueOverride.NONE);
    }

    @Override
    public Optional<QueueOverride> sessionOverride(SessionKey session) {
        return store.queueOverride(session);
    }

    @Override
    public void setSessionOverride(SessionKey session, QueueOverride override) {
        store.setQueueOverride(session, Objects.requireNonNull(override, "override"));
    }

    @Override
    public int stop(SessionKey session) {
        SessionQueue queue = ctx.sessions.get(session);
        return queue == null ? 0 : queue.stop();
    }

    @Override
    public void newConversation(SessionKey session) {
        store.clearHistory(session);
        ctx.agents.apply(session).resetConversation(session);
    }

    @Override
    public SessionStatus status(SessionKey session, String channel) {
        SessionQueue queue = ctx.sessions.get(session);
        int depth = queue == null ? 0 : queue.queuedMessages();
        Duration age = queue == null ? null : queue.activeRunAge(ctx.clock.instant());
        List<LaneSnapshot> lanes = new ArrayList<>();
        lanes.add(ctx.lanes.snapshot(session.laneName()));
        lanes.add(ctx.lanes.snapshot(Lanes.MAIN));
        return new SessionStatus(effectiveSettings(session, channel), depth, age, lanes);
    }

    // ---------------------------------------------------------------- lifecycle and observation

    /** Starts every channel; a channel that fails to start is logged and the others still start. */
    public void start() {
        for (ChannelAdapter channel : channels.values()) {
            try {
                channel.start(this);
                log.info("channel {} started", channel.name());
            } catch (Exception e) {
                log.error("channel {} failed to start: {}", channel.name(), e.toString());
            }
        }
    }

    /**
     * Graceful shutdown: stops taking messages (channels stop; late arrivals are refused as busy),
     * waits up to {@code grace} for queued work to finish, then aborts what is still running.
     * Returns true when everything finished within the grace period.
     */
    public boolean shutdown(Duration grace) throws InterruptedException {
        accepting = false;
        channels.values().forEach(channel -> {
            try {
                channel.stop();
            } catch (RuntimeException e) {
                log.warn("channel {} failed to stop cleanly: {}", channel.name(), e.toString());
            }
        });
        boolean drained = awaitIdle(grace);
        if (!drained) {
            log.warn("shutdown: {} session(s) still busy after {} ms; aborting their runs",
                    ctx.sessions.size(), grace.toMillis());
            ctx.sessions.values().forEach(SessionQueue::abortForShutdown);
        }
        return drained;
    }

    /** Waits until no session has work (runs, queued items, inbound buffers); true if reached. */
    public boolean awaitIdle(Duration timeout) throws InterruptedException {
        return ctx.idle.await(ctx.sessions::isEmpty, timeout);
    }

    /** Sessions that currently have work (idle sessions are not kept). */
    public int busySessions() {
        return ctx.sessions.size();
    }

    /** Accepted messages that have not ended yet (the admission counter). */
    public int pendingMessages() {
        return ctx.admission.pending();
    }

    public List<LaneSnapshot> lanes() {
        return ctx.lanes.snapshots();
    }

    /**
     * Busy sessions by state: {@code running} (a run is active), {@code draining} (messages queued,
     * waiting for the debounce), {@code debouncing} (inbound debounce buffers only). Idle sessions
     * are not kept, so they are not counted.
     */
    public Map<String, Integer> sessionStates() {
        Map<String, Integer> states = new java.util.TreeMap<>();
        ctx.sessions.values().forEach(queue -> states.merge(queue.state(), 1, Integer::sum));
        return states;
    }

    /** Every busy session with its queued message count, deepest first. */
    public Map<SessionKey, Integer> queueDepths() {
        Map<SessionKey, Integer> depths = new LinkedHashMap<>();
        ctx.sessions.values().stream()
                .sorted((a, b) -> Integer.compare(b.queuedMessages(), a.queuedMessages()))
                .forEach(queue -> depths.put(queue.key(), queue.queuedMessages()));
        return depths;
    }

    public GatewaySettings settings() {
        return settings;
    }

    /** Wires a gateway; every collaborator has a usable default except the agent. */
    public static final class Builder {
        private GatewaySettings settings = GatewaySettings.defaults();
        private InstantSource clock = InstantSource.system();
        private Scheduler scheduler;
        private Executor executor;
        private Agent agent;
        private SessionStore store;
        private CommandHandler commands = CommandHandler.NONE;
        private AccessPolicy access = AccessPolicy.ALLOW_ALL;
        private DispositionListener listener = DispositionListener.NONE;
        private GatewayObserver observer = GatewayObserver.NONE;
        private final Map<String, ChannelAdapter> channels = new LinkedHashMap<>();

        public Builder settings(GatewaySettings value) { settings = value; return this; }
        public Builder clock(InstantSource value) { clock = value; return this; }
        public Builder scheduler(Scheduler value) { scheduler = value; return this; }
        /** Runs agent starts, completions and sends; production uses virtual threads. */
        public Builder executor(Executor value) { executor = value; return this; }
        public Builder agent(Agent value) { agent = value; return this; }
        public Builder store(SessionStore value) { store = value; return this; }
        public Builder commands(CommandHandler value) { commands = value; return this; }
        public Builder access(AccessPolicy value) { access = value; return this; }
        public Builder listener(DispositionListener value) { listener = value; return this; }
        /** Metrics: dispositions, runs, lane waits, drains, sends, rate limits, retries. */
        public Builder observer(GatewayObserver value) { observer = value; return this; }

        public Builder channel(ChannelAdapter channel) {
            if (channels.putIfAbsent(channel.name(), channel) != null) {
                throw new IllegalArgumentException("two channels named " + channel.name());
            }
            return this;
        }

        public Gateway build() {
            Objects.requireNonNull(agent, "agent");
            Objects.requireNonNull(scheduler, "scheduler");
            Objects.requireNonNull(executor, "executor");
            if (store == null) {
                store = new dev.laneway.core.store.InMemorySessionStore();
            }
            return new Gateway(this);
        }
    }
}
