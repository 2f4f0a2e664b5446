package dev.laneway.core.engine;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.scheduling.Claim;
import dev.laneway.core.Disposition;
import dev.laneway.core.QueueMode;
import dev.laneway.core.Route;
import dev.laneway.core.agent.Agent;
import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.agent.MessageFiles;
import dev.laneway.core.lane.LanePermit;
import dev.laneway.core.time.Scheduler.Cancellable;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * One agent run of a session, from the moment it is admitted to its session until it ends: the
 * {@link Turn} it answers and where it is in its life.
 *
 * <h2>States</h2>
 * {@link State} with its table of legal moves ({@link State#canMoveTo}); every change goes through
 * {@link #moveTo}, which throws on an illegal one. A callback that may legitimately arrive late (a
 * lane grant after an abort, an agent's outcome after the deadline ended the run) asks
 * {@link State#isOneOf} first and does nothing when the run has moved on.
 * <pre>
 *   WAITING ──all permits──▶ STARTING ──agent started──▶ RUNNING ──retryable failure──▶ RETRY_WAIT ──backoff──▶ WAITING
 *   RUNNING ──its agent could not answer, a fallback is left──▶ STARTING (the next agent, same permits)
 *   STARTING, RUNNING ──interrupt, stop, deadline──▶ ABORTING ──agent stopped or deadline──▶ ABORTED
 *   STARTING, RUNNING ──shutdown──▶ SHUTTING_DOWN ──agent stopped──▶ ENDED   (──interrupt, stop, deadline──▶ ABORTING)
 *   WAITING, RETRY_WAIT ──interrupt, stop──▶ ABORTING (then ABORTED at once: no agent to wait for)
 *   WAITING, STARTING, RUNNING, RETRY_WAIT, SHUTTING_DOWN ──ended──▶ ENDED
 * </pre>
 * Two facts sit beside the state, each documented where it is declared: {@link #abortCause}, the
 * cause of the first abort, set once with the move out of the running states (it decides how the
 * run's messages end), and {@link #delivered}, which records that output went out: it is orthogonal
 * to the state (a reply may go out in any state the agent runs in, before or after an abort) and
 * decides whether the run may be retried and how its steers end.
 *
 * <p>Concurrency: mutable fields are guarded by the owning {@link SessionQueue}'s lock. The state
 * and {@code delivered} are volatile, so the run's event gate ({@link GatedRunEvents}) reads them
 * from the agent's threads without the lock: the run is silenced exactly when its state is
 * {@code ABORTING} or {@code ABORTED}. {@code itemsAnswered} is set once by compare-and-set
 * ({@link #claimItemsAnswered}), from the agent's thread or under the lock, and
 * {@code itemsRecordQueued} (volatile) once that record is in the outbox.
 */
final class Run {

    /** Where a run is in its life. */
    enum State {
        /** Holds its session's slot and waits for its lanes ({@code cron} for a scheduled job's run, then {@code main}). */
        WAITING,
        /**
         * Holds its session's slot and all its permits; the agent (or, after a fallback, the next
         * agent) is being started.
         */
        STARTING,
        /** The agent is running. */
        RUNNING,
        /** A retryable failure: waiting for the backoff before trying again. */
        RETRY_WAIT,
        /**
         * Its agent was asked to abort for a shutdown and the run waits for it to stop; what it
         * replies still goes out (its message then counts as answered).
         */
        SHUTTING_DOWN,
        /**
         * Aborted by an interrupt, a stop or its deadline: it sends nothing more; a run whose agent
         * runs waits for it to stop (or for its deadline).
         */
        ABORTING,
        /** Over: its messages are settled (or left pending for a shutdown), its slots given back. */
        ENDED,
        /** Over after an abort that silenced it: its agent's late events are dropped. */
        ABORTED;

        private static final Map<State, Set<State>> LEGAL = legalMoves();

        private static Map<State, Set<State>> legalMoves() {
            Map<State, Set<State>> moves = new EnumMap<>(State.class);
            moves.put(WAITING, EnumSet.of(STARTING, ABORTING, ENDED));
            moves.put(STARTING, EnumSet.of(RUNNING, SHUTTING_DOWN, ABORTING, ENDED));
            // RUNNING -> STARTING: its agent could not answer; the next agent of its ladder starts
            moves.put(RUNNING, EnumSet.of(STARTING, RETRY_WAIT, SHUTTING_DOWN, ABORTING, ENDED));
            moves.put(RETRY_WAIT, EnumSet.of(WAITING, ABORTING, ENDED));
            moves.put(SHUTTING_DOWN, EnumSet.of(ABORTING, ENDED));
            moves.put(ABORTING, EnumSet.of(ABORTED));
            moves.put(ENDED, EnumSet.noneOf(State.class));
            moves.put(ABORTED, EnumSet.noneOf(State.class));
            return moves;
        }

        /** Whether a run in this state may move to {@code next}. */
        boolean canMoveTo(State next) {
            return LEGAL.get(this).contains(next);
        }

        boolean isOneOf(State a, State b) {
            return this == a || this == b;
        }

        boolean isOneOf(State a, State b, State c) {
            return this == a || this == b || this == c;
        }

        /** Its agent may be running: from the start of the agent until the run ends. */
        boolean agentPhase() {
            return this == STARTING || this == RUNNING || this == SHUTTING_DOWN || this == ABORTING;
        }

        /** The run ended. */
        boolean over() {
            return this == ENDED || this == ABORTED;
        }
    }

    /** Why a run was aborted; {@code DEADLINE}: it ran longer than its agent's run timeout. */
    enum AbortCause { INTERRUPT, STOP, SHUTDOWN, DEADLINE }

    final String id;
    final List<QueuedItem> items;
    final String prompt;
    final List<MessageFiles> files;
    final Route route;
    final Disposition disposition;
    final boolean group;
    final String senderId;
    // its lead item's sender authority; with the route, the run's audience
    private final boolean trusted;
    // made on first use (lock held): only a steer asks for it
    private Audience audience;
    /**
     * The queue mode the run's messages arrived with (the last message's, for a batch; for a turn
     * that carries only an overflow summary, the last dropped message's: see {@link #summaryOnly}).
     */
    final QueueMode mode;
    /** When it was made, epoch millis (a long, not an {@code Instant}: no object per run; D219). */
    final long createdAtMillis;
    /** What it claims {@code main} with: its class and tenant (docs/behaviour.md §11). */
    final Claim claim;
    /** A scheduled job's run: it also holds the {@code cron} lane (docs/behaviour.md §11.5). */
    final boolean scheduled;
    /**
     * The agents the run may answer on, in order (docs/behaviour.md §13): the agent its lead message
     * is bound to, then that agent's fallbacks. Resolved once, when the run is made, from the lead
     * message alone, so a restored run resolves the same way.
     */
    final List<String> ladder;
    /**
     * The scheduler's admission degraded the run's message (docs/behaviour.md §13.3): it starts on
     * its first fallback and holds the {@code fallback} lane instead of {@code main}.
     */
    final boolean degraded;

    private volatile State state = State.WAITING;
    int attempt = 1;
    /**
     * The agent of a scheduled job's run whose job names one the {@link AgentRoster} does not hold
     * (docs/behaviour.md §12): it answers in place of the ladder's first agent; null otherwise.
     */
    Agent ownAgent;
    /** Where the run is on its {@link #ladder}: the agent its current or next attempt runs on. */
    int rung;
    /** Why the run first stepped down its ladder ({@link FallbackReason}), or null while on its own agent. */
    FallbackReason fellBack;
    /**
     * Counts the starts of the run's agents (attempts and fallbacks alike): a deadline timer or an
     * agent event of an earlier start is stale. Volatile: the event gate reads it without the lock.
     */
    volatile int launch;
    AgentRun agentRun;
    String agentName = "agent";
    CompletableFuture<LanePermit> laneWait;
    // its permits, in the order granted ({@code cron} for a scheduled job's run, then {@code main} or
    // {@code fallback}); given back by releasePermits
    final List<LanePermit> permits = new ArrayList<>(2);
    /**
     * Whether the run holds its session's slot (the lane {@code session:<key>}, cap 1, that status
     * pages show): from its creation, and again from a retry's return to {@code WAITING}, until it
     * gives its slots back. The slot is the session's one active run ({@link SessionQueue} makes at
     * most one), so holding it takes no lane object; this flag is what {@code /status} reports.
     */
    boolean holdsSessionSlot = true;
    /**
     * The cause of the run's first abort, or null: set once, with the first move to
     * {@code SHUTTING_DOWN} or {@code ABORTING} (or, for a run with no agent running, just before it
     * ends); a later abort of the same run keeps it. It decides how the run's messages end.
     */
    AbortCause abortCause;
    Cancellable retryTimer = Cancellable.NONE;
    // ends the current attempt when its agent's run timeout has passed since it started
    Cancellable deadlineTimer = Cancellable.NONE;
    /** When its agent last started, epoch millis; {@link #NOT_STARTED} before the first start. */
    long startedAtMillis = NOT_STARTED;
    // steers the agent accepted, in arrival order, with whether each is also kept as a followup
    final List<Steered> steered = new ArrayList<>();
    // ids of steers a delivered reply of this run answered (they end as steered, whatever the
    // outcome); made on first use, as toldInterrupted: most runs are never steered or interrupted
    private Set<Long> answeredSteers;
    // the run's own messages were recorded answered by a reply while it went on; set once, through
    // ITEMS_ANSWERED (a reply that answers no steer claims it without the session lock)
    private volatile boolean itemsAnswered;
    /**
     * That record is queued in the outbox, behind the reply (set once it is, on any thread): the
     * run's end then queues no second one ({@link Settlement#settleRecorded}).
     */
    volatile boolean itemsRecordQueued;
    // sender keys already told that this run's interruption skipped their message (once per sender)
    private Set<String> toldInterrupted;

    /**
     * Set once the run delivered any reply (read and written by the event gate without the lock):
     * such a run is never retried, and its steers the model saw end as answered. Orthogonal to the
     * state: a reply may go out in any state the agent runs in.
     */
    volatile boolean delivered;
    // its messages and steers whose receipt goes before the run's next output (docs/behaviour.md §16.5);
    // null when no channel shows receipts. Thread-safe: added to by effects, drained by the agent's thread
    java.util.Queue<Ticket> receiptsBeforeOutput;
    /** Whether the outbox got every reply of the run out; its answered messages stay pending if not. */
    final Delivery delivery = new Delivery();
    /** The current attempt's streamed answer, or null (docs/behaviour.md §16); guarded by the session lock. */
    LiveAnswer live;

    /** {@link #startedAtMillis} of a run whose agent never started. */
    static final long NOT_STARTED = Long.MIN_VALUE;

    /** A run answered by one agent, with no fallback (tests). */
    Run(String id, Turn turn, Instant createdAt, Claim claim) {
        this(id, turn, createdAt.toEpochMilli(), claim, List.of("agent"));
    }

    /**
     * @param createdAtMillis when it is made, epoch millis
     * @param ladder the agents the run may answer on, its bound agent first (see {@link #ladder})
     */
    Run(String id, Turn turn, long createdAtMillis, Claim claim, List<String> ladder) {
        this.id = id;
        this.items = turn.items();
        this.prompt = turn.prompt();
        this.files = turn.files();
        this.route = turn.route();
        this.disposition = turn.disposition();
        QueuedItem lead = turn.lead();
        this.group = !lead.last().direct();
        this.senderId = lead.last().senderId();
        this.trusted = lead.trusted(); // the lead's route is the turn's: its audience is (route, trusted, scheduled)
        this.mode = lead.settings().mode();
        this.createdAtMillis = createdAtMillis;
        this.claim = claim;
        this.scheduled = lead.last().origin() == InboundMessage.Origin.SCHEDULE;
        this.ladder = List.copyOf(ladder);
        this.degraded = this.ladder.size() > 1 && lead.tickets().stream().anyMatch(Ticket::degraded);
        if (degraded) {
            rung = 1;
            fellBack = FallbackReason.DEGRADE;
        }
        this.agentName = this.ladder.get(rung);
    }

    /** The name of the agent the run's current or next attempt runs on. */
    String agent() {
        return ladder.get(rung);
    }

    /** Whether the run has an agent left to fall back to. */
    boolean hasFallback() {
        return rung + 1 < ladder.size();
    }

    /**
     * The lanes the run asks for while it holds its session's slot, in order: the {@code cron} lane
     * for a scheduled job's run, then {@code main} (the {@code fallback} lane for a degraded run).
     */
    int lanesNeeded() {
        return scheduled ? 2 : 1;
    }

    State state() {
        return state;
    }

    /**
     * The run's conversation and its sender's authority: only a message of the same may steer it
     * (lock held; made on first use).
     */
    Audience audience() {
        if (audience == null) {
            audience = Audience.of(route, trusted, scheduled); // the lead's: its route is the turn's
        }
        return audience;
    }

    /** Ids of steers a delivered reply of this run answered (lock held; made on first use). */
    Set<Long> answeredSteers() {
        if (answeredSteers == null) {
            answeredSteers = new HashSet<>();
        }
        return answeredSteers;
    }

    /** Sender keys told that this run's interruption skipped their message (lock held; made on first use). */
    Set<String> toldInterrupted() {
        if (toldInterrupted == null) {
            toldInterrupted = new HashSet<>();
        }
        return toldInterrupted;
    }

    /**
     * The one way the state changes (lock held). Throws {@link IllegalStateException} on a move the
     * table does not allow: that is a bug, and it shows up in tests instead of being skipped.
     */
    void moveTo(State next) {
        State from = state;
        if (!from.canMoveTo(next)) {
            throw new IllegalStateException("run " + id + ": illegal transition from " + from + " to " + next);
        }
        state = next;
    }

    /**
     * Records an abort for {@code cause} (lock held): the first cause is kept; a shutdown moves a run
     * whose agent runs to {@code SHUTTING_DOWN} (it still delivers), any other cause silences the run
     * ({@code ABORTING}). A shutdown of a run waiting for a lane or a retry changes nothing here: it
     * ends at once, its messages left pending.
     */
    void abort(AbortCause cause) {
        if (abortCause == null) {
            abortCause = cause;
        }
        if (cause == AbortCause.SHUTDOWN) {
            if (state.isOneOf(State.STARTING, State.RUNNING)) {
                moveTo(State.SHUTTING_DOWN);
            }
        } else if (state != State.ABORTING) {
            moveTo(State.ABORTING);
        }
    }

    /** Ends the run (lock held): {@code ABORTED} when it was silenced, else {@code ENDED}. */
    void end() {
        moveTo(state == State.ABORTING ? State.ABORTED : State.ENDED);
    }

    /** The run was silenced by an abort: its events are ignored from then on. Any thread. */
    boolean silenced() {
        State now = state;
        return now == State.ABORTING || now == State.ABORTED;
    }

    /** The run answers only an overflow summary: it has no messages of its own. */
    boolean summaryOnly() {
        return items.isEmpty();
    }

    /**
     * Gives the permits back (through {@code fx}, once the lock is released) in reverse order of
     * acquisition: {@code main}, then {@code cron} (a scheduled job's run); the session's slot at
     * once (it is {@link #holdsSessionSlot}). Called with the session lock held.
     */
    void releasePermits(Effects fx) {
        for (int i = permits.size() - 1; i >= 0; i--) {
            fx.add(permits.get(i)::close);
        }
        permits.clear();
        holdsSessionSlot = false;
    }

    /**
     * True for the one caller that records the run's own messages as answered by a reply while it
     * goes on (any thread: a reply that answers no steer claims it without the session lock).
     */
    boolean claimItemsAnswered() {
        return ITEMS_ANSWERED.compareAndSet(this, false, true);
    }

    private static final VarHandle ITEMS_ANSWERED;

    static {
        try {
            ITEMS_ANSWERED = MethodHandles.lookup().findVarHandle(Run.class, "itemsAnswered", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The messages of the run's own turn (not its steers), oldest first. */
    List<Ticket> tickets() {
        if (items.size() == 1) {
            return items.get(0).tickets(); // immutable already: most runs answer one item
        }
        List<Ticket> tickets = new ArrayList<>();
        items.forEach(item -> tickets.addAll(item.tickets()));
        return tickets;
    }

    int messageCount() {
        return items.stream().mapToInt(item -> item.tickets().size()).sum();
    }

    /** A steer the agent accepted; {@code backlog} when the same item also waits as a followup. */
    record Steered(QueuedItem item, boolean backlog) {
    }
}
