package dev.laneway.core.engine;

import dev.laneway.core.scheduling.SchedulerSnapshot;
import dev.laneway.core.scheduling.WaitEstimate;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueOverride;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.SessionKey;
import dev.laneway.core.command.QueuedMessage;
import dev.laneway.core.Route;
import dev.laneway.core.agent.Agent;
import dev.laneway.core.channel.ChannelAdapter;
import dev.laneway.core.channel.InboundSink;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.command.GatewayControl;
import dev.laneway.core.command.SessionStatus;
import dev.laneway.core.fleet.Fleet;
import dev.laneway.core.fleet.FleetAllowance;
import dev.laneway.core.fleet.FleetCaps;
import dev.laneway.core.fleet.FleetPermitSource;
import dev.laneway.core.lane.LaneSnapshot;
import dev.laneway.core.lane.Lanes;
import dev.laneway.core.store.JournalEntry;
import dev.laneway.core.store.MessageJournal;
import dev.laneway.core.store.SessionStore;
import dev.laneway.core.time.Scheduler;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's front door: wiring, lifecycle (start, restore, graceful shutdown) and status. Its
 * {@link #accept} hands one inbound message to {@link Reception} and returns at once (dedupe,
 * access policy, commands, settings resolution, admission, journal, then the session's
 * {@link SessionQueue} decides: run now, steer, queue, interrupt). Also the {@link GatewayControl}
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
    private final GatewayObserver observer;
    private final ChannelStarter starter;
    private final Reception reception;
    private final AtomicBoolean started = new AtomicBoolean();
    private static final Duration ABORT_WAIT = Duration.ofSeconds(5);

    private final FleetAllowance fleetMain; // null unless main is fleet-wide

    /** Fleet permits this instance holds for {@code main} (its allowance), or -1 for one instance. */
    public int fleetMainPermits() {
        return fleetMain == null ? -1 : fleetMain.held();
    }

    /** Session leases this instance holds, or -1 for one instance. */
    public int fleetLeases() {
        return ctx.fleet == null ? -1 : ctx.fleet.leasesHeld();
    }

    private Gateway(Builder b) {
        this.settings = b.settings;
        this.store = b.store;
        this.observer = ObserverFanout.of(b.listener, b.observer);
        Map<String, ChannelAdapter> channels = Map.copyOf(b.channels);
        Map<String, Integer> caps = new HashMap<>(settings.laneCaps());
        caps.remove(Lanes.MAIN); // main is the scheduler's (RunScheduling), not a plain lane
        Lanes lanes = new Lanes(caps, b.clock, settings.laneWarnAfter(), observer::laneWaited);
        Outbox outbox = new Outbox(b.outboxExecutor != null ? b.outboxExecutor : b.executor, b.scheduler, b.clock,
                channels::get, observer);
        Admission admission = new Admission(settings.maxPendingRuns(), settings.mainMaxConcurrent());
        AgentRoster agents = b.agents != null ? b.agents : AgentRoster.of(b.agent);
        Map<String, Agent> jobAgents = Map.copyOf(b.jobAgents);
        this.ctx = new EngineContext(settings, b.clock, b.scheduler, b.executor, lanes, outbox, admission,
                agents, jobAgents::get, channels, observer, b.journal, b.fleet);
        if (ctx.fleet != null) {
            ctx.fleet.abandon(this::abandonLostSession);
            ctx.fleet.stopper(this::stopHere);
            ctx.fleet.busyWhen(this::busy);
        }
        if (b.fleetCaps != null && b.fleetMain == null) {
            throw new IllegalStateException("fleet-wide tenant caps and class shares need a fleet-wide main (fleetMain)");
        }
        this.fleetMain = b.fleetMain == null ? null
                : b.fleetCaps == null
                ? FleetAllowance.gate(ctx.scheduling.main, b.fleetMain, b.executor, b.scheduler,
                        FleetAllowance.RETRY_EVERY)
                : FleetAllowance.gateWithCaps(ctx.scheduling.main, b.fleetMain, b.fleetCaps, b.executor, b.scheduler,
                        FleetAllowance.RETRY_EVERY);
        this.starter = new ChannelStarter(channels, outbox, b.scheduler, b.executor);
        this.reception = new Reception(ctx, store, b.commands, this, b.access);
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
    public void reply(Route route, String text) {
        ctx.outbox.send(route, text);
    }

    @Override
    public void accept(InboundMessage message) {
        reception.accept(message);
    }

    /**
     * Posts a scheduled job's prompt to its target chat (docs/behaviour.md §12): a message from sender
     * {@code schedule:<jobId>} (named {@code jobId}) without a platform message id, taken through the
     * same way in as a user's (journaled first, so it is answered once, also after a crash), except
     * that it skips the access policy and command parsing and always runs as a turn of its own
     * (followup, whatever the session's mode). Its answer is posted in the chat, by the agent the
     * builder's {@link Builder#jobAgent} names for the job (with that agent's fallbacks when the
     * roster holds it), else the one its target's binding names. Returns once it is
     * journaled (or refused), like {@link #accept}.
     */
    public boolean submitScheduled(String jobId, Route target, String prompt) {
        return submitScheduled(jobId, target, null, prompt);
    }

    /**
     * As {@link #submitScheduled(String, Route, String)}, in a chat of platform space {@code space}
     * (a Discord guild, a Slack workspace; null for none): the prompt counts against that space's
     * tenant and matches its bindings (docs/behaviour.md §11.2, §13.1).
     */
    public boolean submitScheduled(String jobId, Route target, String space, String prompt) {
        return reception.accept(ScheduledPrompts.message(jobId, target, space, prompt, ctx.clock.instant()));
    }

    /**
     * Whether the session a prompt of job {@code jobId} to {@code target} would join is busy now: a
     * run active or waiting, messages queued, or an inbound-debounce buffer (docs/behaviour.md §1).
     */
    public boolean scheduledTargetBusy(String jobId, Route target) {
        InboundMessage probe = ScheduledPrompts.message(jobId, target, null, "", ctx.clock.instant());
        SessionQueue queue = ctx.sessions.get(settings.sessionScope().keyOf(probe));
        return queue != null && queue.busy();
    }

    // ---------------------------------------------------------------- GatewayControl

    @Override
    public QueueSettings effectiveSettings(SessionKey session, String channel) {
        return reception.resolve(session, channel, QueueOverride.NONE);
    }

    @Override
    public int capPerSender(int cap) {
        return settings.capPerSenderFor(cap);
    }

    @Override
    public Optional<QueueOverride> sessionOverride(SessionKey session) {
        return store.queueOverride(session);
    }

    @Override
    public void setSessionOverride(SessionKey session, QueueOverride override) {
        store.setQueueOverride(session, Objects.requireNonNull(override, "override"));
    }

    /** This instance's sessions in its fleet (null for a single instance); for the engine's tests. */
    FleetSessions fleetSessions() {
        return ctx.fleet;
    }

    /**
     * This instance lost the session's lease (docs/behaviour.md §17): nothing more of its answers is
     * sent and its work here is stopped; the records of its messages are refused by the fence, so
     * they stay pending for the lease's holder. The stop is silent (D230): its messages show no
     * receipt, since the holder answers them.
     */
    void abandonLostSession(SessionKey session) {
        ctx.outbox.stopAnswers(session);
        SessionQueue queue = ctx.sessions.get(session);
        if (queue != null) {
            queue.abandon();
        }
    }

    /**
     * {@inheritDoc} In a fleet (docs/behaviour.md §17, decision D233): the session's durable stop mark
     * is raised first, so its messages accepted so far are never run, whoever holds it now or takes
     * it over later. A session whose lease another instance holds is stopped there (asked on its
     * nudge stream, not waited for: this runs on the channel's delivery thread); the count is its
     * pending messages up to the mark but the running one. A session nobody holds is taken here, the
     * marked messages dropped at the pick-up; one held here picks up what other instances journaled
     * for it first (dropped the same way), then stops what runs here.
     */
    @Override
    public int stop(SessionKey session) {
        int dropped = 0;
        if (ctx.fleet != null) {
            Fleet.Stop marked = ctx.fleet.requestStop(session);
            if (marked != null && marked.holder() != null && !ctx.fleet.holdsHere(session)) {
                return ctx.fleet.pendingUpTo(session, marked.upTo());
            }
            dropped = ctx.fleet.pickUp(session, true);
        }
        return dropped + stopHere(session);
    }

    /** {@code /stop} of a session on this instance. */
    private int stopHere(SessionKey session) {
        ctx.outbox.stopAnswers(session); // what is left of its answers is not sent, even of a run that has ended
        SessionQueue queue = ctx.sessions.get(session);
        return queue == null ? 0 : queue.stop();
    }

    @Override
    public List<QueuedMessage> queued(SessionKey session, InboundMessage sender, boolean everyone) {
        SessionQueue queue = ctx.sessions.get(session);
        return queue == null ? List.of() : queue.queuedOf(everyone ? null : QueuedItem.senderKey(sender));
    }

    @Override
    public int cancelQueued(SessionKey session, InboundMessage sender, boolean everyone) {
        SessionQueue queue = ctx.sessions.get(session);
        return queue == null ? 0 : queue.cancelQueued(everyone ? null : QueuedItem.senderKey(sender));
    }

    /**
     * Discards the session's queued messages ({@code STOPPED}) and leaves its active run alone; the
     * operator console's "clear queue" (docs/behaviour.md §18). Returns how many were discarded.
     */
    public int clearQueue(SessionKey session) {
        SessionQueue queue = ctx.sessions.get(session);
        return queue == null ? 0 : queue.clearQueue();
    }

    /** Clears the session's history, and every agent's memory of it (any of them may answer it, docs/behaviour.md §13). */
    @Override
    public void newConversation(SessionKey session) {
        store.clearHistory(session);
        ctx.agents.agents().forEach(agent -> agent.resetConversation(session));
    }

    /**
     * {@link #status(SessionKey, String)}, naming the agent that answers {@code message}'s conversation
     * and its fallbacks when the gateway has more than one agent (docs/behaviour.md §13.1).
     */
    @Override
    public SessionStatus status(SessionKey session, InboundMessage message) {
        SessionStatus status = status(session, message.channel());
        if (ctx.agents.agents().size() < 2) {
            return status; // one agent answers everything: nothing to tell
        }
        String bound = ctx.agents.bound(message);
        List<String> ladder = ctx.agents.ladder(bound);
        return status.withAgent(bound, ladder.subList(1, ladder.size()));
    }

    @Override
    public SessionStatus status(SessionKey session, String channel) {
        if (ctx.fleet != null && !ctx.fleet.holdsHere(session)) {
            FleetSessions.Remote remote = ctx.fleet.remote(session);
            if (remote != null && !ctx.fleet.instanceId().equals(remote.holder())) {
                return remoteStatus(session, channel, remote);
            }
        }
        SessionQueue queue = ctx.sessions.get(session);
        int depth = queue == null ? 0 : queue.queuedMessages();
        Duration age = queue == null ? null : queue.activeRunAge(ctx.clock.instant());
        List<LaneSnapshot> lanes = new ArrayList<>();
        lanes.add(queue == null ? SessionQueue.idleLane(session) : queue.sessionLane());
        lanes.add(ctx.scheduling.main.laneSnapshot());
        WaitEstimate waiting = ctx.scheduling.main.waitingRun(session.value()).orElse(null);
        return new SessionStatus(effectiveSettings(session, channel), depth, age, lanes, waiting);
    }

    /**
     * {@code /status} of a session this instance does not hold (docs/behaviour.md §17): from the shared
     * journal and the lease. Held by another instance with messages pending, the oldest is taken to be
     * running (for as long as since it was accepted) and the rest queued; held by nobody, every pending
     * message is queued (the next sweep takes the session over).
     */
    private SessionStatus remoteStatus(SessionKey session, String channel, FleetSessions.Remote remote) {
        List<JournalEntry> pending = remote.pending();
        boolean running = remote.holder() != null && !pending.isEmpty();
        int depth = running ? pending.size() - 1 : pending.size();
        Duration age = null;
        if (running) {
            Instant since = pending.get(0).acceptedAt() != null ? pending.get(0).acceptedAt()
                    : pending.get(0).message().receivedAt();
            age = since == null ? Duration.ZERO : Duration.between(since, ctx.clock.instant());
            age = age.isNegative() ? Duration.ZERO : age;
        }
        List<LaneSnapshot> lanes = List.of(new LaneSnapshot(session.laneName(), 1, running ? 1 : 0, depth),
                ctx.scheduling.main.laneSnapshot());
        return new SessionStatus(effectiveSettings(session, channel), depth, age, lanes, null);
    }

    // ---------------------------------------------------------------- lifecycle and observation

    /**
     * Restores what the journal still holds (see {@link JournalRestore}), then starts every channel. Until
     * a channel has started its replies are held (so restored answers and expiry notices are not
     * lost to a channel that cannot send yet) and go out in order once it has. A channel that fails
     * to start is logged and retried in the background (1 s doubling to 60 s) until it starts or the
     * gateway shuts down; the others start regardless. Restore comes first, so restored messages
     * keep their place ahead of anything that arrives once the channels take traffic. A second call
     * does nothing (it would hold the replies of channels already started and start them again).
     */
    public void start() {
        if (!started.compareAndSet(false, true)) {
            log.warn("gateway already started; ignoring a second start");
            return;
        }
        starter.holdAll();
        reception.restore();
        starter.startAll(this);
    }

    /** Whether the channel has started (false before {@link #start}, and while a failed start is retried). */
    public boolean channelStarted(String channel) {
        return starter.started(channel);
    }

    /** True once {@link #shutdown} has begun: no new message is taken. */
    public boolean shuttingDown() {
        return reception.closed();
    }

    /**
     * Graceful shutdown. First it stops taking work ({@link #shuttingDown} turns true at once, no new
     * run starts) and asks every channel to stop fetching ({@link ChannelAdapter#stopReceiving}), so
     * a platform that keeps what was not fetched (Telegram) keeps it for the next start. A message
     * that still arrives (a channel that cannot stop without losing it) is journaled and left
     * pending, not refused: it runs after the restart. Then active runs get up to {@code grace} to
     * finish; the rest are aborted, and their replies get up to 5 s to be sent. Only then is every
     * reply still queued held, pending channel start retries cancelled and the channels stopped
     * (replies during the grace period still need them). Messages not answered by then (queued, in
     * an aborted run, arrived during the shutdown, or whose answer is still queued or held for a
     * channel that never started) stay pending in the journal and run after the restart: an answer
     * still queued is never sent to a stopped channel, so its message never counts as answered
     * without it. Returns true when every active run finished within the grace period.
     */
    public boolean shutdown(Duration grace) throws InterruptedException {
        return shutdown(grace, ABORT_WAIT);
    }

    /** {@link #shutdown(Duration)}, with the waits that follow the grace period ({@code waits}) given. */
    boolean shutdown(Duration grace, Duration waits) throws InterruptedException {
        reception.close();
        if (ctx.fleet != null) {
            ctx.fleet.stop(); // no more pick-ups; what is pending here is taken over once the app leaves the fleet
        }
        ctx.stopping = true;
        starter.stopReceivingAll();
        log.info("shutdown: no new runs; messages that still arrive are kept for the next start; active runs get"
                + " up to {} ms to finish", grace.toMillis());
        boolean finished = ctx.idle.await(this::noActiveRuns, grace);
        if (!finished) {
            log.warn("shutdown: {} run(s) still active after {} ms; aborting them, their messages stay queued",
                    ctx.sessions.values().stream().filter(SessionQueue::hasActiveRun).count(), grace.toMillis());
            ctx.sessions.values().forEach(SessionQueue::abortForShutdown);
            ctx.idle.await(this::noActiveRuns, waits);
        }
        if (!ctx.idle.await(ctx.outbox::isIdle, waits)) {
            log.warn("shutdown: replies were still being sent after {} ms; those not sent yet are kept, their"
                    + " messages run again at the next start", waits.toMillis());
        }
        // from here on nothing more is sent: a reply sent to a stopped channel would fail, and the
        // "answered" record queued behind it would end its message all the same
        ctx.outbox.holdForShutdown();
        int held = ctx.outbox.heldCount();
        if (held > 0) {
            log.warn("shutdown: {} reply item(s) not sent (still queued, or held for channels that never started);"
                    + " their messages stay pending and run again at the next start", held);
        }
        int kept = reception.keptForRestart();
        if (kept > 0) {
            log.info("shutdown: {} message(s) that arrived during the shutdown are kept and run at the next start", kept);
        }
        starter.stopAll();
        return finished;
    }

    private boolean noActiveRuns() {
        return ctx.sessions.values().stream().noneMatch(queue -> queue.busy() && queue.hasActiveRun())
                && !ctx.settlement.settling();
    }

    /**
     * Waits until no session has work (runs, queued items, inbound buffers) and every ended message
     * has been recorded (its answered record queued behind its reply); true if reached.
     */
    public boolean awaitIdle(Duration timeout) throws InterruptedException {
        return ctx.idle.await(() -> noBusySession() && !ctx.settlement.settling(), timeout);
    }

    /** Whether the session has work here (a resting session has none). */
    private boolean busy(SessionKey session) {
        SessionQueue queue = ctx.sessions.get(session);
        return queue != null && queue.busy();
    }

    private boolean noBusySession() {
        for (SessionQueue queue : ctx.sessions.values()) {
            if (queue.busy()) {
                return false;
            }
        }
        return true;
    }

    /** Sessions that currently have work (idle sessions resting in the registry are not counted). */
    public int busySessions() {
        int busy = 0;
        for (SessionQueue queue : ctx.sessions.values()) {
            if (queue.busy()) {
                busy++;
            }
        }
        return busy;
    }

    /** Sessions the registry holds, resting ones too (for tests of D216). */
    int registeredSessions() {
        return ctx.sessions.size();
    }

    /** Accepted messages that have not ended yet (the admission counter). */
    public int pendingMessages() {
        return ctx.admission.pending();
    }

    /**
     * {@code main} (the scheduler's), then the other configured lanes in name order, then any other
     * the lanes registry made, then each session lane in use ({@code session:<key>}, derived from its
     * session: see {@link SessionQueue#sessionLane}), in name order.
     */
    public List<LaneSnapshot> lanes() {
        List<LaneSnapshot> lanes = new ArrayList<>();
        lanes.add(ctx.scheduling.main.laneSnapshot());
        lanes.addAll(ctx.lanes.snapshots());
        List<LaneSnapshot> sessionLanes = new ArrayList<>();
        ctx.sessions.values().forEach(queue -> {
            if (!queue.busy()) {
                return; // resting: no run, so no slot in use
            }
            LaneSnapshot lane = queue.sessionLane();
            if (lane.active() > 0) {
                sessionLanes.add(lane);
            }
        });
        sessionLanes.sort(Comparator.comparing(LaneSnapshot::name));
        lanes.addAll(sessionLanes);
        return lanes;
    }

    /** {@code main}'s classes and tenants now (docs/behaviour.md §11.4). */
    public SchedulerSnapshot scheduler() {
        return ctx.scheduling.main.snapshot();
    }

    /**
     * Busy sessions by state: {@code running} (a run is active, also while an interrupt aborts it), {@code draining} (messages queued,
     * waiting for the debounce), {@code debouncing} (inbound debounce buffers only). Idle sessions
     * (resting in the registry) are not counted.
     */
    public Map<String, Integer> sessionStates() {
        Map<String, Integer> states = new java.util.TreeMap<>();
        ctx.sessions.values().forEach(queue -> {
            if (queue.busy()) {
                states.merge(queue.state().id(), 1, Integer::sum);
            }
        });
        return states;
    }

    /** Every busy session with its queued message count, deepest first. */
    public Map<SessionKey, Integer> queueDepths() {
        List<Map.Entry<SessionKey, Integer>> snapshot = new ArrayList<>();
        ctx.sessions.values().forEach(queue -> {
            if (queue.busy()) {
                snapshot.add(Map.entry(queue.key(), queue.queuedMessages()));
            }
        });
        snapshot.sort((a, b) -> Integer.compare(b.getValue(), a.getValue()));
        Map<SessionKey, Integer> depths = new LinkedHashMap<>();
        snapshot.forEach(entry -> depths.put(entry.getKey(), entry.getValue()));
        return depths;
    }

    /** Every busy session as the operator console shows it (docs/behaviour.md §18), in key order. */
    public List<ConversationSnapshot> conversations() {
        List<ConversationSnapshot> all = new ArrayList<>();
        ctx.sessions.values().forEach(queue -> {
            if (queue.busy()) {
                all.add(queue.snapshot());
            }
        });
        all.sort(Comparator.comparing(ConversationSnapshot::session));
        return all;
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
        private Executor outboxExecutor;
        private Agent agent;
        private AgentRoster agents;
        private SessionStore store;
        private CommandHandler commands = CommandHandler.NONE;
        private AccessPolicy access = AccessPolicy.ALLOW_ALL;
        private DispositionListener listener = DispositionListener.NONE;
        private MessageJournal journal = MessageJournal.NONE;
        private GatewayObserver observer = GatewayObserver.NONE;
        private final Map<String, ChannelAdapter> channels = new LinkedHashMap<>();
        private final Map<String, Agent> jobAgents = new HashMap<>();
        private Fleet fleet;
        private FleetPermitSource fleetMain;
        private FleetCaps fleetCaps;

        public Builder settings(GatewaySettings value) { settings = value; return this; }
        public Builder clock(InstantSource value) { clock = value; return this; }
        public Builder scheduler(Scheduler value) { scheduler = value; return this; }
        /** Runs agent starts, completions and sends; production uses virtual threads. */
        public Builder executor(Executor value) { executor = value; return this; }
        /** Runs reply delivery only; default: {@link #executor}. Tests hold replies back with it. */
        public Builder outboxExecutor(Executor value) { outboxExecutor = value; return this; }
        /** The one agent that answers everything, with no fallback; or see {@link #agents}. */
        public Builder agent(Agent value) { agent = value; return this; }
        /** The agents with their bindings and fallbacks (docs/behaviour.md §13); replaces {@link #agent}. */
        public Builder agents(AgentRoster value) { agents = value; return this; }
        public Builder store(SessionStore value) { store = value; return this; }
        public Builder commands(CommandHandler value) { commands = value; return this; }
        public Builder access(AccessPolicy value) { access = value; return this; }
        public Builder listener(DispositionListener value) { listener = value; return this; }
        /** Where accepted messages are recorded until they end (durability); default: nowhere. */
        public Builder journal(MessageJournal value) { journal = value; return this; }
        /**
         * The fleet this instance belongs to (docs/behaviour.md §17): sessions run here only under
         * their lease, the restore at start becomes the fleet's takeover; default: one instance.
         */
        public Builder fleet(Fleet value) { fleet = value; return this; }
        /** Fleet-wide permits that gate {@code main}'s grants (docs/behaviour.md §17); default: none. */
        public Builder fleetMain(FleetPermitSource value) { fleetMain = value; return this; }
        /**
         * The fleet's named caps: with {@link #fleetMain}, tenants' running caps and the background
         * share are fleet-wide too (docs/behaviour.md §11, §17); default: per instance.
         */
        public Builder fleetCaps(FleetCaps value) { fleetCaps = value; return this; }
        /** Metrics: dispositions, runs, lane waits, drains, sends, rate limits, retries. */
        public Builder observer(GatewayObserver value) { observer = value; return this; }

        /** The agent that answers scheduled job {@code jobId}'s prompts instead of the gateway's agent. */
        public Builder jobAgent(String jobId, Agent value) {
            jobAgents.put(Objects.requireNonNull(jobId, "jobId"), Objects.requireNonNull(value, "agent"));
            return this;
        }

        public Builder channel(ChannelAdapter channel) {
            if (channels.putIfAbsent(channel.name(), channel) != null) {
                throw new IllegalArgumentException("two channels named " + channel.name());
            }
            return this;
        }

        public Gateway build() {
            if (agents == null) {
                Objects.requireNonNull(agent, "agent");
            }
            Objects.requireNonNull(scheduler, "scheduler");
            Objects.requireNonNull(executor, "executor");
            if (store == null) {
                store = new dev.laneway.core.store.InMemorySessionStore();
            }
            return new Gateway(this);
        }
    }
}
