package dev.laneway.core.engine;

import java.util.List;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.SessionKey;
import dev.laneway.core.agent.Agent;
import dev.laneway.core.channel.ChannelAdapter;
import dev.laneway.core.channel.ChannelCapabilities;
import dev.laneway.core.channel.Streaming;
import dev.laneway.core.Route;
import dev.laneway.core.fleet.Fleet;
import dev.laneway.core.lane.Lanes;
import dev.laneway.core.store.MessageJournal;
import dev.laneway.core.time.Scheduler;
import java.time.Duration;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every {@link SessionQueue} shares: settings, time, the executor, lanes, outbox, admission,
 * the agent, the channels, the {@link Settlement}, the stateless {@link Steering} and
 * {@link Interrupts}, the run deadlines and the session registry. Immutable references to
 * thread-safe services.
 * The channels' capabilities are read once, here, so the engine never calls into a channel while
 * it holds a session lock.
 */
final class EngineContext {

    private static final Logger log = LoggerFactory.getLogger(EngineContext.class);

    final GatewaySettings settings;
    final InstantSource clock;
    final Scheduler scheduler;
    final Executor executor;
    final Lanes lanes;
    final Outbox outbox;
    final Admission admission;
    /** The agents, their bindings and fallbacks (docs/behaviour.md §13). */
    final AgentRoster agents;
    // scheduled job id -> the agent its job names, or null for the bound agent (docs/behaviour.md §12)
    private final Function<String, Agent> jobAgents;
    // channel name -> its capabilities, read once; a channel whose capabilities could not be read is missing
    private final Map<String, ChannelCapabilities> capabilities;
    // channel name -> the channel, for what is asked per run (streaming)
    private final Map<String, ChannelAdapter> channels;
    final GatewayObserver observer;
    final MessageJournal journal;
    /** Set on shutdown: no new run starts; unfinished messages stay pending in the journal. */
    volatile boolean stopping;
    private final AtomicLong runIds = new AtomicLong();
    // session key -> its queue, while the session is busy or rests (idle, kept for its chat's next
    // message until RestingSessions retires it; SessionQueue.busy tells which)
    final Map<SessionKey, SessionQueue> sessions = new ConcurrentHashMap<>();

    final IdleSignal idle = new IdleSignal();
    /** {@code idle::signal}, made once: every run's end adds it to its effects. */
    final Runnable signalIdle = idle::signal;
    /** Drop and once-per-sender notices. */
    final NoticeSender notices;
    /** How a message ends: its disposition, admission slot, journal record, listeners and hooks. */
    final Settlement settlement;
    /** Receipts on the messages (docs/behaviour.md §16.5). */
    final Receipts receipts;
    /** Who may steer, and how steers end; stateless, shared by every session. */
    final Steering steering;
    /** What aborting a run does, and who is told; stateless, shared by every session. */
    final Interrupts interrupts;
    /** The running attempts' deadlines, behind one timer. */
    final RunDeadlines deadlines;
    /** This instance's sessions in its fleet (docs/behaviour.md §17); null for a single instance. */
    final FleetSessions fleet;
    /** Classes, tenants and the {@code main} scheduler (docs/behaviour.md §11). */
    final RunScheduling scheduling;

    EngineContext(GatewaySettings settings, InstantSource clock, Scheduler scheduler, Executor executor,
                  Lanes lanes, Outbox outbox, Admission admission, AgentRoster agents,
                  Map<String, ChannelAdapter> channels, GatewayObserver observer,
                  MessageJournal journal) {
        this(settings, clock, scheduler, executor, lanes, outbox, admission, agents, jobId -> null, channels, observer,
                journal, null);
    }

    EngineContext(GatewaySettings settings, InstantSource clock, Scheduler scheduler, Executor executor,
                  Lanes lanes, Outbox outbox, Admission admission, AgentRoster agents,
                  Function<String, Agent> jobAgents, Map<String, ChannelAdapter> channels, GatewayObserver observer,
                  MessageJournal journal, Fleet fleet) {
        this.jobAgents = jobAgents;

        this.settings = settings;
        this.clock = clock;
        this.scheduler = scheduler;
        this.executor = executor;
        this.lanes = lanes;
        this.outbox = outbox;
        this.admission = admission;
        this.agents = agents;
        Map<String, ChannelAdapter> named = Map.copyOf(channels);
        this.channels = named;
        this.observer = observer;
        this.journal = journal;
        Map<String, ChannelCapabilities> read = new HashMap<>();
        named.forEach((name, channel) -> {
            try {
                read.put(name, Objects.requireNonNull(channel.capabilities(), "capabilities"));
            } catch (Throwable e) {
                Fatal.rethrowIfFatal(e);
                log.error("channel {} could not say what it can do; it gets no typing and no message hooks: {}",
                        name, e.toString());
            }
        });
        this.capabilities = Map.copyOf(read);
        this.deadlines = new RunDeadlines(clock, scheduler);
        this.scheduling = new RunScheduling(settings.scheduling(), settings.mainMaxConcurrent(), clock,
                settings.laneWarnAfter(), observer);
        this.notices = new NoticeSender(outbox, settings.notifyDrops());
        this.fleet = fleet == null ? null : new FleetSessions(fleet, journal, executor, scheduler);
        this.receipts = new Receipts(outbox, named, this.capabilities);
        this.settlement = new Settlement(admission, outbox, observer, new JournalRecords(journal, scheduler, this.fleet), idle, named, capabilities, receipts);
        this.steering = new Steering(settings.steerScope(), notices, settlement, receipts);
        this.interrupts = new Interrupts(notices, settlement);
    }

    /**
     * Whether a run's answer to {@code route} streams (docs/behaviour.md §16), as its channel says;
     * off when the channel is unknown or cannot say. Calls the channel: never under a session lock.
     */
    Streaming streaming(Route route) {
        ChannelAdapter channel = channels.get(route.channel());
        if (channel == null) {
            return Streaming.OFF;
        }
        try {
            Streaming streaming = channel.streaming(route);
            return streaming == null ? Streaming.OFF : streaming;
        } catch (Throwable e) {
            Fatal.rethrowIfFatal(e);
            log.warn("channel {} could not say whether it streams answers; this run's answer is not streamed: {}",
                    route.channel(), e.toString());
            return Streaming.OFF;
        }
    }

    /**
     * The agent a scheduled job's turn names, looked up by the job id in its message (so it holds
     * after a restore too); null for any other turn, and for a job that names none (its message's
     * binding decides then).
     */
    Agent jobAgent(Turn turn) {
        if (turn.items().size() != 1) {
            return null;
        }
        String jobId = ScheduledPrompts.jobId(turn.items().get(0).last());
        return jobId == null ? null : jobAgents.apply(jobId);
    }

    /**
     * The agent ladder a run led by {@code message} will have: its scheduled job's agent's when the job
     * names one, else its binding's (docs/behaviour.md §12, §13.1), as {@code SessionQueue.startRun}
     * resolves it; admission asks it to decide whether a {@code degrade} has a fallback to start on.
     */
    List<String> ladderFor(InboundMessage message) {
        String jobId = ScheduledPrompts.jobId(message);
        Agent jobAgent = jobId == null ? null : jobAgents.apply(jobId);
        if (jobAgent != null) {
            return agents.nameOf(jobAgent).map(agents::ladder).orElse(List.of("agent"));
        }
        return agents.ladder(agents.bound(message));
    }

    String nextRunId() {
        return "r" + runIds.incrementAndGet();
    }

    /** How often typing must be refreshed in a channel; empty when it has no typing indicator. */
    Optional<Duration> typingRefresh(String channel) {
        ChannelCapabilities can = capabilities.get(channel);
        if (can == null || !can.typing()) {
            return Optional.empty();
        }
        return Optional.of(can.typingRefresh());
    }
}
