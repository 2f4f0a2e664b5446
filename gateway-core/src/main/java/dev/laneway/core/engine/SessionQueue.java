package dev.laneway.core.engine;

import dev.laneway.core.Disposition;
import dev.laneway.core.QueueMode;
import dev.laneway.core.Route;
import dev.laneway.core.SessionKey;
import dev.laneway.core.command.QueuedMessage;
import dev.laneway.core.agent.Agent;
import dev.laneway.core.lane.LaneSnapshot;
import dev.laneway.core.scheduling.Claim;
import dev.laneway.core.time.Scheduler.Cancellable;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The per-session state machine of docs/behaviour.md §3 to §7: one active run at a time,
 * a followup queue drained with debounce, cap and drop, steering, interrupt and stop.
 *
 * <h2>States</h2>
 * {@link State}, with its table of legal moves ({@link State#canMoveTo}); every change goes through
 * {@link #moveTo}, which throws on an illegal one.
 * <ul>
 *   <li><b>IDLE</b>: no active run, nothing queued, no interrupting successor, no inbound buffer.
 *       An idle session rests in the registry (not busy: {@link #busy}), keeping its lock and run
 *       driver for the chat's next message, and retires once it has rested a while
 *       ({@link RestingSessions}, docs/decisions.md D216), so idle sessions cost no memory for long.
 *       While a shutdown keeps it, and before its first message, it is idle without resting (busy).</li>
 *   <li><b>DEBOUNCING</b>: only inbound debounce buffers (docs/behaviour.md §7) collect messages,
 *       per sender, before they are offered; the session still counts as idle for an offer.</li>
 *   <li><b>RUNNING</b>: a run is active (waiting for lanes, starting, running, waiting to retry, or
 *       being aborted). Newcomers follow their queue mode.</li>
 *   <li><b>INTERRUPTING</b>: the active run is being aborted by an interrupt and its successor, the
 *       interrupting message, waits for it to end.</li>
 *   <li><b>DRAINING</b>: no active run but items queued, waiting for the debounce deadline (or,
 *       once stopping, for the restart). The session counts as busy here, so a newcomer joins the
 *       queue instead of overtaking it.</li>
 *   <li><b>RETIRED</b>: rested long enough and left the registry; a message that finds it looks the
 *       session up again.</li>
 * </ul>
 * <pre>
 *   IDLE ──buffered──▶ DEBOUNCING ──offered──▶ RUNNING ──interrupt──▶ INTERRUPTING ──run ended──▶ RUNNING (the successor)
 *   IDLE ──offered──▶ RUNNING ──run ended──▶ DRAINING (queued) ──drain──▶ RUNNING
 *   RUNNING ──run ended, nothing waits──▶ IDLE (resting) ──rested long enough──▶ RETIRED
 *       (DEBOUNCING while a buffer waits; IDLE without resting while stopping)
 *   RUNNING, INTERRUPTING, DRAINING ──interrupt or stop cleared what waits──▶ RUNNING, IDLE or DEBOUNCING
 * </pre>
 * Inbound buffers may also fill while a run is active; they do not change the state then.
 *
 * <h2>Runs</h2>
 * The session's one active run holds the session's slot (the lane {@code session:<key>}, cap 1, of
 * docs/behaviour.md §2): this class never makes a second run while one is active, so the slot takes
 * no lane object (docs/decisions.md D89); {@link #sessionLane} reports it. The run then waits for
 * ({@code cron} for a scheduled job's run) {@code main}, by its class and tenant (docs/behaviour.md
 * §11); it starts its agent only while holding them all and while the gateway is not stopping.
 * Every exit path gives every permit back: completion
 * (whatever the agent threw while starting), abort, retry wait, and a shutdown that began while it
 * waited (its messages then stay pending in the journal). An aborted run sends nothing more, not
 * even a failure notice.
 *
 * <h2>Who sees what</h2>
 * A drained turn holds items of one {@link Audience} (conversation and sender authority) and only
 * that audience's overflow summary. Senders are named by {@link QueuedItem#senderKey} (channel,
 * account, id), since with {@code dmScope: main} one session spans channels. Each sender is told at
 * most once that an interrupt skipped their messages, and is told about drops even when an
 * interrupt or {@code /stop} clears the queue before the next drain.
 *
 * <h2>Who does what</h2>
 * This class is the one owner of the session's state and makes every transition: a message is
 * offered (run now, steer, queue or interrupt), a run ends (its successor runs, the queue drains,
 * or the session retires), a drain starts the next {@link Turn}. Jobs with rules of their own work
 * beside it and hand their decisions back instead of changing its state: {@link RunDriver} (a run's
 * lanes, agent start, completion and retries; it reports how a run ends as a {@link RunEnd}),
 * {@link Steering} (who may steer, and how steers end; it hands back those that run again),
 * {@link Interrupts} (what an abort does to
 * a run, what discarded work ends as, and who is told), {@link InboundDebounce}
 * (docs/behaviour.md §7), {@link FollowupQueue} (the queue's bookkeeping, answering with
 * {@code Offer}, {@code Drain} and {@code Cleared}) and {@link TypingIndicator}.
 *
 * <h2>Concurrency</h2>
 * One {@link SessionLock} per session guards every mutable field of this class, of the helpers above
 * and of its {@link Run}s (except the run's volatile state, {@code delivered} and the two flags of
 * what its replies recorded, which its event gate sets and reads: see {@link Run}). Helper methods are called with the lock held, unless their doc says they take it:
 * timer, lane, executor and agent callbacks take it through the {@link SessionLock}. Decisions are made under the
 * lock; side effects (sends, lane requests, aborts, agent starts, and what follows from a message's
 * end: its journal record, listeners and metrics, the channel's settled hook) are collected in
 * {@link Effects} and carried out, in the order collected, after the lock is released: a notice is
 * collected before the settles of the messages it is about, so it reaches the outbox first. Channel
 * capabilities are read once, when the gateway is built ({@link EngineContext}). So the one foreign
 * call made under the lock is {@code AgentRun.steer}, which the SPI requires to be non-blocking; it
 * makes "steer accepted" and "run completed" totally ordered. Agent completions arrive on the
 * executor and re-enter through {@link RunDriver}.
 */
final class SessionQueue {

    private static final boolean CHECKED = SessionQueue.class.desiredAssertionStatus();

    /** What the session is doing. */
    enum State {
        IDLE, DEBOUNCING, RUNNING, INTERRUPTING, DRAINING, RETIRED;

        private static final Map<State, Set<State>> LEGAL = legalMoves();

        private static Map<State, Set<State>> legalMoves() {
            Map<State, Set<State>> moves = new EnumMap<>(State.class);
            // -> DRAINING from IDLE or DEBOUNCING: a run offered while stopping waits in the queue for the restart;
            // a session retires only from IDLE, once it has rested there long enough (RestingSessions)
            moves.put(IDLE, EnumSet.of(DEBOUNCING, RUNNING, DRAINING, RETIRED));
            moves.put(DEBOUNCING, EnumSet.of(IDLE, RUNNING, DRAINING));
            moves.put(RUNNING, EnumSet.of(INTERRUPTING, DRAINING, DEBOUNCING, IDLE));
            // INTERRUPTING -> RUNNING: the successor runs, or a later interrupt or stop discarded it
            moves.put(INTERRUPTING, EnumSet.of(RUNNING, DRAINING));
            moves.put(DRAINING, EnumSet.of(RUNNING, DEBOUNCING, IDLE));
            moves.put(RETIRED, EnumSet.noneOf(State.class));
            return moves;
        }

        /** Whether a session in this state may move to {@code next}. */
        boolean canMoveTo(State next) {
            return LEGAL.get(this).contains(next);
        }

        /**
         * The move to {@code next} of the session {@code key}: returns {@code next}, or throws
         * {@link IllegalStateException} when the table does not allow it. Staying is no move.
         */
        State moveTo(State next, SessionKey key) {
            if (next != this && !canMoveTo(next)) {
                throw new IllegalStateException("session " + key + ": illegal transition from " + this + " to " + next);
            }
            return next;
        }

        /**
         * The name status pages and metrics show: the lower-case name, except that an interrupting
         * session counts as {@code running} (its run is still active; the states they report are
         * {@code running}, {@code draining} and {@code debouncing}).
         */
        String id() {
            return this == INTERRUPTING ? "running" : name().toLowerCase(Locale.ROOT);
        }
    }

    private final SessionKey key;
    private final EngineContext ctx;
    // the invariant check runs only with assertions on: no check object otherwise
    private final SessionLock lock = new SessionLock(CHECKED ? this::checkState : null);

    private State state = State.IDLE;                                 // guarded by lock
    private Run active;                                               // guarded by lock
    private QueuedItem successor;                                     // guarded by lock; runs after an interrupted run
    private FollowupQueue followups;                                  // guarded by lock; made on first use
    private Cancellable drainTimer = Cancellable.NONE;                // guarded by lock
    private Cancellable graceTimer = Cancellable.NONE;                // guarded by lock; the interrupt's grace notice
    private InboundDebounce inbound;                                  // guarded by lock; made on the first buffer
    private TypingIndicator typing;                                   // guarded by lock; made for a channel with typing
    // idle and kept for the chat's next message, or retired: not busy. Written under lock, read by
    // anyone (admission, status, shutdown and the fleet ask whether a session is busy)
    private volatile boolean resting;
    private long restingSince;                                        // guarded by lock; epoch millis
    private Claim lastClaim;                                          // guarded by lock; the last run's (D218)
    private final Steering steering;
    private final Interrupts interrupts;
    private final RunDriver runs;

    SessionQueue(SessionKey key, EngineContext ctx) {
        this.key = key;
        this.ctx = ctx;
        this.steering = ctx.steering;
        this.interrupts = ctx.interrupts;
        this.runs = new RunDriver(key, lock, ctx, steering, new RunDriver.Ends() {
            @Override
            public void requeue(List<QueuedItem> steers) {
                for (QueuedItem item : steers) { // most runs hand back none
                    followups().requeue(item, ctx.clock.instant());
                }
            }

            @Override
            public void ended(Run run, RunEnd end, Effects fx) {
                endRun(run, end, fx);
            }
        });
    }

    SessionKey key() {
        return key;
    }

    // ---------------------------------------------------------------- accepting messages

    /**
     * Takes an accepted message. Returns false when this queue has retired (the caller looks the
     * session up again).
     */
    boolean accept(QueuedItem item, Duration inboundDebounce, Duration inboundMaxWait) {
        return lock.lockedGet(fx -> {
            if (state == State.RETIRED) {
                return false;
            }
            Route route = item.route();
            if (typing != null || ctx.typingRefresh(route.channel()).isPresent()) {
                typing().accepted(route, fx);
            }
            boolean debounced = InboundDebounce.applies(item, inboundDebounce);
            if (debounced || !noInbound()) { // the sender key costs a string: only when buffers matter
                String sender = item.senderKey();
                if (debounced && ((inbound != null && inbound.holds(sender)) || isIdle())) {
                    inbound().add(item, inboundDebounce, inboundMaxWait);
                    if (state == State.IDLE) {
                        moveTo(State.DEBOUNCING);
                    }
                    return true;
                }
                offerBuffered(sender, fx);
            }
            offer(item, fx);
            return true;
        });
    }

    /**
     * Offers a sender's buffered inbound messages now (a command or media from them arrived). Flushes
     * the buffers of every channel where this sender id has one: flushing early only shortens a wait.
     */
    boolean flushInbound(String senderId) {
        return lock.lockedGet(fx -> {
            if (state == State.RETIRED) {
                return false;
            }
            if (inbound != null) {
                inbound.sendersWithId(senderId).forEach(sender -> offerBuffered(sender, fx));
            }
            return true;
        });
    }

    private void inboundDue(String sender) {
        lock.locked(fx -> {
            if (state != State.RETIRED) {
                offerBuffered(sender, fx);
            }
        });
    }

    /** Offers the sender's inbound buffer as one item, if they have one. */
    private void offerBuffered(String sender, Effects fx) {
        QueuedItem buffered = inbound == null ? null : inbound.take(sender);
        if (buffered != null) {
            if (state == State.DEBOUNCING && noInbound()) {
                moveTo(State.IDLE);
            }
            offer(buffered, fx);
        }
    }

    private void offer(QueuedItem item, Effects fx) {
        if (isIdle()) {
            startRun(Turn.alone(item), fx);
            return;
        }
        switch (item.settings().mode()) {
            case INTERRUPT -> interrupt(item, fx);
            case STEER -> steerOrQueue(item, false, fx);
            case STEER_BACKLOG -> steerOrQueue(item, true, fx);
            case COLLECT -> enqueue(item.withMode(QueueMode.COLLECT), fx);
            case FOLLOWUP -> enqueue(item.withMode(QueueMode.FOLLOWUP), fx);
        }
    }

    /** Whether an offered message runs now: no run, nothing queued, no successor (inbound buffers aside). */
    private boolean isIdle() {
        return state == State.IDLE || state == State.DEBOUNCING;
    }

    /** Into the active run if it takes the steer; a followup otherwise, and also for steer-backlog. */
    private void steerOrQueue(QueuedItem item, boolean backlog, Effects fx) {
        boolean alsoQueued = backlog && followups().hasRoomFor(item);
        if (!steering.steer(active, item, alsoQueued, fx) || alsoQueued) {
            enqueue(item.withMode(QueueMode.FOLLOWUP), fx);
        }
    }

    // ---------------------------------------------------------------- interrupt, stop, shutdown

    /** {@code interrupt} mode in a busy session: discard what waits, abort the run, then run {@code item}. */
    private void interrupt(QueuedItem item, Effects fx) {
        Run run = active;
        Set<String> told = interrupts.toldFor(run);
        interrupts.discard(takeWaiting(false), Disposition.INTERRUPTED, told, fx);
        if (run == null) {
            startRun(Turn.alone(item), fx);
            return;
        }
        successor = item;
        moveTo(State.INTERRUPTING);
        endRun(run, interrupts.abort(run, Run.AbortCause.INTERRUPT, fx), fx);
        if (active == run && graceTimer == Cancellable.NONE) {
            graceTimer = ctx.scheduler.schedule(ctx.settings.interruptGrace(), () -> graceExpired(run));
        }
    }

    /**
     * The interrupt's grace period ended: an interrupting message still waiting tells its sender
     * the old run is still shutting down (it runs when that run finally ends). Takes the lock.
     */
    private void graceExpired(Run run) {
        lock.locked(fx -> {
            graceTimer = Cancellable.NONE;
            if (active == run && successor != null) {
                Route route = successor.route();
                fx.add(() -> ctx.outbox.send(route, Notices.STILL_SHUTTING_DOWN));
            }
        });
    }

    /**
     * {@code /stop}: aborts the active run and clears everything waiting; returns how many messages
     * were discarded (queued ones, those of a run that had not started or waited to retry, and
     * steers that can no longer be answered).
     */
    int stop() {
        return stop(false);
    }

    /**
     * The session's lease was lost (docs/behaviour.md §17): stopped as by {@link #stop}, but silently
     * as far as receipts go (D230): its messages' receipts may change no more, so none of them shows
     * "dropped" next to the answer the lease's new holder gives.
     */
    void abandon() {
        stop(true);
    }

    private int stop(boolean silent) {
        return lock.lockedGet(fx -> {
            if (state == State.RETIRED) {
                return 0;
            }
            FollowupQueue.Cleared waiting = takeWaiting(true);
            Run run = active;
            if (silent) {
                for (QueuedItem item : waiting.items()) {
                    item.tickets().forEach(Receipts::silence);
                }
                if (run != null) {
                    run.tickets().forEach(Receipts::silence);
                    run.steered.forEach(steered -> steered.item().tickets().forEach(Receipts::silence));
                }
            }
            int cleared = interrupts.discard(waiting, Disposition.STOPPED, new HashSet<>(), fx);
            if (run != null) {
                if (run.state().isOneOf(Run.State.WAITING, Run.State.RETRY_WAIT)) {
                    cleared += run.messageCount();
                }
                endRun(run, interrupts.abort(run, Run.AbortCause.STOP, fx), fx);
                cleared += steering.stopUnanswered(run, fx);
            }
            restIfIdle(fx);
            return cleared;
        });
    }

    /**
     * Empties what waits for a turn, as {@link #stop} does, but leaves the active run alone: the
     * operator console's "clear queue" (docs/behaviour.md §18). The discarded messages end
     * {@code STOPPED}, drop notices owed are sent; returns how many were discarded.
     */
    int clearQueue() {
        return lock.lockedGet(fx -> {
            if (state == State.RETIRED) {
                return 0;
            }
            int cleared = interrupts.discard(takeWaiting(true), Disposition.STOPPED, new HashSet<>(), fx);
            restIfIdle(fx);
            return cleared;
        });
    }

    /** Aborts the active run on shutdown; its messages stay accounted as run. */
    void abortForShutdown() {
        lock.locked(fx -> {
            Run run = active;
            if (run != null) {
                endRun(run, interrupts.abort(run, Run.AbortCause.SHUTDOWN, fx), fx);
            }
        });
    }

    // ---------------------------------------------------------------- followup queue and drains

    private void enqueue(QueuedItem item, Effects fx) {
        boolean merged = ctx.receipts.any() && followups().joinsCollect(item);
        FollowupQueue.Offer offer = followups().offer(item, ctx.clock.instant());
        for (FollowupQueue.Refused refused : offer.refused()) { // a group sender over their part (§5.4)
            reject(refused.item(), refused.tell(), item.settings().cap(), fx);
        }
        if (!offer.accepted()) {
            reject(item, offer.notifyRejection(), item.settings().cap(), fx);
            return;
        }
        Disposition dropped = offer.summarized() ? Disposition.SUMMARIZED : Disposition.DROPPED_OLD;
        offer.dropped().forEach(victim -> ctx.settlement.settleAll(victim, dropped, fx));
        if (ctx.receipts.any()) {
            receipt(item, merged, fx);
        }
        if (active == null) {
            scheduleDrain(fx);
        }
    }

    /**
     * The receipt of an item just queued (docs/behaviour.md §16.5): merged into the collect batch
     * waiting before it, or queued, its place the number of messages queued now, its estimated wait
     * that many runs at the mean run time.
     */
    private void receipt(QueuedItem item, boolean merged, Effects fx) {
        List<Ticket> tickets = item.tickets();
        int position = followups().messageCount();
        Duration wait = Duration.ofMillis(ctx.admission.meanRunMillis() * position);
        fx.add(() -> tickets.forEach(ticket -> {
            if (merged) {
                ctx.receipts.merged(ticket);
            } else {
                ctx.receipts.queued(ticket, position, wait, false);
            }
        }));
    }

    /** An item refused by {@code drop: new} ends {@code REJECTED_NEW}; its sender is told first, once per drain cycle. */
    private void reject(QueuedItem item, boolean notify, int cap, Effects fx) {
        if (notify && ctx.settings.notifyDrops()) {
            Route route = item.route();
            String text = Notices.rejected(cap);
            fx.add(() -> ctx.outbox.send(route, text)); // before the settle: told before it counts as ended
        }
        ctx.settlement.settleAll(item, Disposition.REJECTED_NEW, fx);
    }

    private void scheduleDrain(Effects fx) {
        drainTimer.cancel();
        drainTimer = Cancellable.NONE;
        if (ctx.stopping) {
            ctx.notices.drops(followups().releaseForShutdown(), true, fx);
            return;
        }
        Instant due = followups().drainDue(ctx.settings.queueMaxWait(), ctx.clock.instant());
        if (due == null) {
            return;
        }
        Duration delay = Duration.between(ctx.clock.instant(), due);
        if (delay.isNegative() || delay.isZero()) {
            drainNow(fx);
        } else {
            drainTimer = ctx.scheduler.schedule(delay, this::onDrainTimer);
        }
    }

    private void onDrainTimer() {
        lock.locked(fx -> {
            if (state == State.DRAINING) { // else a run started, or the queue was cleared, meanwhile
                scheduleDrain(fx);
            }
        });
    }

    /** Starts the next turn off the queue (see {@link Turn#drained}), after telling senders of drops. */
    private void drainNow(Effects fx) {
        FollowupQueue.Drain drain = followups().take(ctx.clock.instant());
        fx.add(() -> ctx.observer.drainDelayed(drain.delay()));
        ctx.notices.drops(drain.notices(), false, fx);
        startRun(Turn.drained(drain), fx);
    }

    /**
     * Empties what waits for a turn: the followups and their overflow, the successor, and with
     * {@code inboundToo} the inbound buffers; no drain follows. Returns the items, in that order,
     * with the drop notices still owed.
     */
    private FollowupQueue.Cleared takeWaiting(boolean inboundToo) {
        FollowupQueue.Cleared cleared = followups().clear();
        List<QueuedItem> taken = new ArrayList<>(cleared.items());
        if (successor != null) {
            taken.add(successor);
            successor = null;
        }
        if (inboundToo && inbound != null) {
            taken.addAll(inbound.clear());
        }
        drainTimer.cancel();
        drainTimer = Cancellable.NONE;
        if (state != State.RETIRED) {
            moveTo(active != null ? State.RUNNING : restingState());
        }
        return new FollowupQueue.Cleared(taken, cleared.notices());
    }

    /** The state of a session with no active run, by what waits: the queue, then inbound buffers. */
    private State restingState() {
        if (!noFollowups() || successor != null) {
            return State.DRAINING;
        }
        return noInbound() ? State.IDLE : State.DEBOUNCING;
    }

    // ---------------------------------------------------------------- runs begin and end

    /** Makes {@code turn} the active run; once stopping, its items wait in the queue instead. */
    private void startRun(Turn turn, Effects fx) {
        if (ctx.stopping) {
            turn.items().forEach(item -> followups().requeue(item, ctx.clock.instant()));
            moveTo(restingState());
            return;
        }
        // its agent: the one its scheduled job names (docs/behaviour.md §12), else its lead message's
        // binding (§13.1); from the message alone, so a restored run resolves the same way
        Agent jobAgent = ctx.jobAgent(turn);
        String jobAgentName = jobAgent == null ? null : ctx.agents.nameOf(jobAgent).orElse(null);
        List<String> ladder = jobAgent != null && jobAgentName == null ? List.of("agent")
                : ctx.agents.ladder(jobAgentName != null ? jobAgentName : ctx.agents.bound(turn.lead().last()));
        Claim claim = ctx.scheduling.claimFor(key, turn, lastClaim);
        lastClaim = claim;
        Run run = new Run(ctx.nextRunId(), turn, ctx.clock.millis(), claim, ladder);
        if (jobAgent != null && jobAgentName == null) {
            run.ownAgent = jobAgent;
        }
        if (ctx.receipts.any()) {
            run.receiptsBeforeOutput = new java.util.concurrent.ConcurrentLinkedQueue<>();
        }
        active = run;
        moveTo(State.RUNNING);
        if (run.degraded) {
            fx.add(() -> ctx.observer.fallback(ladder.get(0), ladder.get(1), FallbackReason.DEGRADE.id));
        }
        fx.add(() -> runs.requestLane(run));
    }

    /**
     * Carries out how {@code run}, the active run, ends ({@link RunEnd}, decided by {@link RunDriver}
     * or {@link Interrupts}). A notice about the run (its failure, a skip) must be in {@code fx}
     * before this call, so it goes out before the settles.
     */
    private void endRun(Run run, RunEnd end, Effects fx) {
        switch (end) {
            case RunEnd.Settled settled -> endRun(run, settled.disposition(), fx);
            case RunEnd.LeftPending pending -> endForShutdown(run, fx);
            case RunEnd.WhenAgentStops later -> { }
        }
    }

    /**
     * Ends the active run: settles its messages and starts what comes next: the interrupting
     * successor, else a drain, else the session retires.
     */
    private void endRun(Run run, Disposition disposition, Effects fx) {
        run.end();
        if (run.state() == Run.State.ENDED && run.itemsRecordQueued) {
            // a reply of the run queued their answered record already, and an unsilenced run keeps it
            run.items.forEach(item -> ctx.settlement.settleRecorded(item, disposition, run.delivery, fx));
        } else {
            run.items.forEach(item -> ctx.settlement.settleAll(item, disposition, run.delivery, fx));
        }
        runGone(run, fx);
        if (ctx.stopping) {
            ctx.notices.drops(followups().releaseForShutdown(), true, fx);
            moveTo(restingState());
            return;
        }
        if (successor != null) {
            QueuedItem next = successor;
            successor = null;
            startRun(Turn.alone(next), fx);
        } else if (!noFollowups()) {
            moveTo(State.DRAINING);
            scheduleDrain(fx);
        } else {
            moveTo(restingState());
            restIfIdle(fx);
        }
    }

    /**
     * Ends a run stopped by a shutdown without settling anything: its messages (and its steers) stay
     * pending in the journal and run again after the restart (runs are at-least-once). Drops still
     * to report are reported now; no drain follows.
     */
    private void endForShutdown(Run run, Effects fx) {
        run.end();
        run.steered.clear();
        ctx.notices.drops(followups().releaseForShutdown(), true, fx);
        runGone(run, fx);
        moveTo(restingState());
    }

    /** The active run ended: no grace notice for it any more. */
    private void runGone(Run run, Effects fx) {
        if (active != run) {
            throw new IllegalStateException("session " + key + ": run " + run.id + " ended but is not the active run");
        }
        active = null;
        graceTimer.cancel();
        graceTimer = Cancellable.NONE;
        fx.add(ctx.signalIdle);
    }

    // ---------------------------------------------------------------- typing, retirement, status

    /** The followup queue, made on first use (lock held): most sessions run one message and retire. */
    private FollowupQueue followups() {
        if (followups == null) {
            followups = new FollowupQueue(ctx.settings.queueCapPerSender());
        }
        return followups;
    }

    /** Whether nothing is queued for a turn, summaries included (lock held). */
    private boolean noFollowups() {
        return followups == null || followups.isEmpty();
    }

    /** The inbound buffers, made on first use (lock held). */
    private InboundDebounce inbound() {
        if (inbound == null) {
            inbound = new InboundDebounce(ctx, this::inboundDue);
        }
        return inbound;
    }

    /** Whether no inbound buffer waits (lock held). */
    private boolean noInbound() {
        return inbound == null || inbound.isEmpty();
    }

    /** The typing indicator, made for the first message in a channel with one (lock held). */
    private TypingIndicator typing() {
        if (typing == null) {
            TypingIndicator[] made = new TypingIndicator[1];
            made[0] = new TypingIndicator(ctx, () -> refreshTyping(made[0]));
            typing = made[0];
        }
        return typing;
    }

    /** The timer of indicator {@code which}: refreshes it, unless the session rested (or retired) since it was made. */
    private void refreshTyping(TypingIndicator which) {
        lock.locked(fx -> {
            if (state != State.RETIRED && typing == which) {
                typing.refresh(workRoutes(), fx);
            }
        });
    }

    /**
     * Where this session has work: the active run's route first, then those of waiting messages
     * (successor, followups, inbound buffers). Once stopping, only the active run (nothing else runs).
     */
    private List<Route> workRoutes() {
        List<Route> routes = new ArrayList<>();
        if (active != null) {
            routes.add(active.route);
        }
        if (ctx.stopping) {
            return routes;
        }
        if (successor != null) {
            routes.add(successor.route());
        }
        if (followups != null) {
            followups.items().forEach(item -> routes.add(item.route()));
        }
        if (inbound != null) {
            inbound.addRoutes(routes);
        }
        return routes;
    }

    /**
     * Rests once nothing is running or waiting: the session stays in the registry for the chat's
     * next message, as a session made afresh would be (no typing indicator, no followup queue, no
     * inbound buffers: made again on first use), and no longer counts as busy; it retires once it
     * has rested long enough ({@link #retireIfRestingSince}). Staying registered spares every run of
     * an idle chat a session, its lock and run driver made and a registry entry added and removed
     * (docs/decisions.md D216).
     */
    private void restIfIdle(Effects fx) {
        if (state != State.IDLE) {
            return;
        }
        if (typing != null) {
            typing.stop();
            typing = null;
        }
        drainTimer.cancel();
        drainTimer = Cancellable.NONE;
        followups = null; // empty: idle
        inbound = null;   // empty: idle
        if (!resting) { // a /stop of a resting session leaves it resting since it began to
            restingSince = ctx.clock.millis();
            resting = true;
            fx.add(ctx.signalIdle);
        }
    }

    /**
     * Retires the session and takes it out of the registry if it has rested since {@code before}
     * (epoch millis) or earlier; a message that finds it retired looks the session up again, and
     * gets a new one. Takes the lock. Returns whether it retired.
     */
    boolean retireIfRestingSince(long before) {
        return lock.underLock(() -> {
            if (state != State.IDLE || !resting || restingSince > before) {
                return false;
            }
            moveTo(State.RETIRED);
            ctx.sessions.remove(key, this);
            return true;
        });
    }

    /**
     * Whether the session has work: a run (active or waiting), queued items, an interrupting
     * successor or an inbound buffer, or it is kept idle by a shutdown. A resting or retired session
     * is not busy. Any thread, no lock: a moment's answer.
     */
    boolean busy() {
        return !resting;
    }

    /**
     * The one way the session's state changes (lock held); staying in a state is no move. Throws
     * {@link IllegalStateException} on a move the table does not allow.
     */
    private void moveTo(State next) {
        state = state.moveTo(next, key);
        if (resting && next != State.IDLE && next != State.RETIRED) {
            resting = false; // a message came: busy again
        }
    }

    /**
     * The invariant, checked before the lock is released whenever assertions are on (in tests): the
     * state agrees with what the fields hold.
     */
    private void checkState() {
        assert state == stateFromFields() : "session " + key + " is " + state + " but its fields say " + stateFromFields();
    }

    private State stateFromFields() {
        if (state == State.RETIRED) {
            return State.RETIRED;
        }
        if (active != null) {
            return successor != null ? State.INTERRUPTING : State.RUNNING;
        }
        return restingState();
    }

    /** Queued messages (followups, an interrupting successor, inbound buffers). */
    /**
     * {@code /queue status} (docs/behaviour.md §6.9): the queued messages of the sender named by
     * {@code senderKey} (null: everyone's), each with its place among every message waiting for a
     * turn (1 = next), in arrival order.
     */
    List<QueuedMessage> queuedOf(String senderKey) {
        return lock.underLock(() -> {
            List<QueuedMessage> found = new ArrayList<>();
            if (followups == null) {
                return found;
            }
            int position = 0;
            for (QueuedItem item : followups.items()) {
                for (Ticket ticket : item.tickets()) {
                    position++;
                    if (senderKey == null || senderKey.equals(item.senderKey())) {
                        found.add(new QueuedMessage(position, ticket.message().text()));
                    }
                }
            }
            return found;
        });
    }

    /**
     * {@code /queue cancel} (docs/behaviour.md §6.9): drops the queued messages of the sender named by
     * {@code senderKey} (null: everyone's); they end {@code STOPPED} and are not answered. The active
     * run goes on. Returns how many messages were dropped.
     */
    int cancelQueued(String senderKey) {
        return lock.lockedGet(fx -> {
            if (state == State.RETIRED || followups == null) {
                return 0;
            }
            List<QueuedItem> cancelled = followups.cancel(item -> senderKey == null || senderKey.equals(item.senderKey()));
            int count = interrupts.discard(new FollowupQueue.Cleared(cancelled, List.of()), Disposition.STOPPED,
                    new HashSet<>(), fx);
            if (active == null && noFollowups() && successor == null && state == State.DRAINING) {
                drainTimer.cancel();
                drainTimer = Cancellable.NONE;
                moveTo(restingState());
                restIfIdle(fx);
            }
            return count;
        });
    }

    int queuedMessages() {
        return lock.underLock(() -> (followups == null ? 0 : followups.messageCount())
                + (successor == null ? 0 : successor.tickets().size())
                + (inbound == null ? 0 : inbound.messageCount()));
    }

    /**
     * The session as the operator console shows it (docs/behaviour.md §18): state, queued messages,
     * and the oldest queued item's mode and arrival (followups first, then an interrupting successor;
     * inbound-debounce buffers count in {@code queued} only).
     */
    ConversationSnapshot snapshot() {
        return lock.underLock(() -> {
            QueuedItem oldest = followups == null ? null : followups.items().stream().findFirst().orElse(null);
            if (oldest == null) {
                oldest = successor;
            }
            int queued = (followups == null ? 0 : followups.messageCount())
                    + (successor == null ? 0 : successor.tickets().size())
                    + (inbound == null ? 0 : inbound.messageCount());
            return new ConversationSnapshot(key, state.id(), active != null, queued,
                    oldest == null ? null : oldest.mode(),
                    oldest == null || oldest.tickets().isEmpty() ? null : oldest.tickets().getFirst().message().receivedAt(),
                    active != null ? active.route : oldest == null ? null : oldest.route());
        });
    }

    /** How long the active run has existed, or null when there is none. */
    Duration activeRunAge(Instant now) {
        return lock.underLock(() -> active == null ? null : Duration.ofMillis(now.toEpochMilli() - active.createdAtMillis));
    }

    /**
     * The session's lane as status pages show it: {@code session:<key>}, cap 1, one slot in use
     * while the active run holds it (waiting for {@code main}, starting or running; not while it
     * waits to retry), nobody queued: a session makes its next run only once the last has ended.
     */
    LaneSnapshot sessionLane() {
        return lock.underLock(() -> new LaneSnapshot(key.laneName(), 1,
                active != null && active.holdsSessionSlot ? 1 : 0, 0));
    }

    /** The lane of a session that has no queue (it is idle): no slot in use. */
    static LaneSnapshot idleLane(SessionKey session) {
        return new LaneSnapshot(session.laneName(), 1, 0, 0);
    }

    /** What the session is doing now, for status pages. */
    State state() {
        return lock.underLock(() -> state);
    }

    boolean hasActiveRun() {
        return lock.underLock(() -> active != null);
    }

    /** Whether the calling thread holds this session's lock (for checks of the lock discipline). */
    boolean lockHeldByCurrentThread() {
        return lock.heldByCurrentThread();
    }
}
