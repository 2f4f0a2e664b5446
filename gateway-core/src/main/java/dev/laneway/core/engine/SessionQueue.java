package dev.laneway.core.engine;

import dev.laneway.core.Disposition;
import dev.laneway.core.QueueMode;
import dev.laneway.core.Route;
import dev.laneway.core.SessionKey;
import dev.laneway.core.time.Scheduler.Cancellable;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The per-session state machine of docs/behaviour.md §3 to §7: one active run at a time,
 * a followup queue drained with debounce, cap and drop, steering, interrupt and stop.
 *
 * <h2>States</h2>
 * <ul>
 *   <li><b>idle</b>: no active run, nothing queued, no interrupting successor. An idle session
 *       retires itself and leaves the registry, so idle sessions cost no memory.</li>
 *   <li><b>running</b>: {@code active != null} (waiting for lanes, starting, running, waiting to
 *       retry, or being aborted). Newcomers follow their queue mode.</li>
 *   <li><b>draining</b>: no active run but items queued, waiting for the debounce deadline. The
 *       session counts as active here, so a newcomer joins the queue instead of overtaking it.</li>
 * </ul>
 * Separately, inbound debounce buffers (docs/behaviour.md §7) collect an idle session's messages per
 * sender before they are offered.
 *
 * <h2>Runs</h2>
 * A run waits for its session lane, then {@code main}; it starts its agent only while holding both
 * and while the gateway is not stopping. Every exit path gives both permits back: completion
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
 * This class holds the session's state and makes its transitions: a message is offered (run now,
 * steer, queue or interrupt), a run ends (its successor runs, the queue drains, or the session
 * retires), a drain starts the next {@link Turn}. Jobs with rules of their own work beside it, on
 * this session's state: {@link RunDriver} (a run's lanes, agent start, completion and retries),
 * {@link Steering} (who may steer, and how steers end), {@link Interrupts} (interrupt, {@code /stop}
 * and shutdown, and who is told), {@link InboundDebounce} (docs/behaviour.md §7), {@link FollowupQueue}
 * (the queue's bookkeeping) and {@link TypingIndicator}.
 *
 * <h2>Concurrency</h2>
 * One {@code lock} per session guards every mutable field of this class, of the helpers above and of
 * its {@link Run}s (except the run's volatile event-gate flags). Helper methods are called with the
 * lock held, unless their doc says they take it: timer, lane, executor and agent callbacks take it
 * through {@link #locked}, {@link #lockedGet} or {@link #underLock}. Decisions are made under the
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

    private final SessionKey key;
    private final EngineContext ctx;
    private final ReentrantLock lock = new ReentrantLock();

    Run active;                                                       // guarded by lock
    QueuedItem successor;                                             // guarded by lock; runs after an interrupted run
    private final FollowupQueue followups = new FollowupQueue();      // guarded by lock
    private Cancellable drainTimer = Cancellable.NONE;                // guarded by lock
    private final InboundDebounce inbound;                            // guarded by lock
    private final TypingIndicator typing;                             // guarded by lock
    private boolean retired;                                          // guarded by lock
    private final Steering steering;
    private final Interrupts interrupts;
    private final RunDriver runs;

    SessionQueue(SessionKey key, EngineContext ctx) {
        this.key = key;
        this.ctx = ctx;
        this.inbound = new InboundDebounce(ctx, this::inboundDue);
        this.typing = new TypingIndicator(ctx, this::refreshTyping);
        this.steering = new Steering(ctx, followups);
        this.interrupts = new Interrupts(this, ctx, steering);
        this.runs = new RunDriver(this, ctx, steering);
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
        return lockedGet(fx -> {
            if (retired) {
                return false;
            }
            typing.accepted(item.route(), fx);
            boolean debounced = InboundDebounce.applies(item, inboundDebounce);
            if (debounced || !inbound.isEmpty()) { // the sender key costs a string: only when buffers matter
                String sender = item.senderKey();
                if (debounced && (inbound.holds(sender) || isIdle())) {
                    inbound.add(item, inboundDebounce, inboundMaxWait);
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
        return lockedGet(fx -> {
            if (retired) {
                return false;
            }
            inbound.sendersWithId(senderId).forEach(sender -> offerBuffered(sender, fx));
            return true;
        });
    }

    private void inboundDue(String sender) {
        locked(fx -> {
            if (!retired) {
                offerBuffered(sender, fx);
            }
        });
    }

    /** Offers the sender's inbound buffer as one item, if they have one. */
    private void offerBuffered(String sender, Effects fx) {
        QueuedItem buffered = inbound.take(sender);
        if (buffered != null) {
            offer(buffered, fx);
        }
    }

    private void offer(QueuedItem item, Effects fx) {
        if (isIdle()) {
            startRun(Turn.alone(item), fx);
            return;
        }
        switch (item.settings().mode()) {
            case INTERRUPT -> interrupts.interrupt(item, fx);
            case STEER -> steerOrQueue(item, false, fx);
            case STEER_BACKLOG -> steerOrQueue(item, true, fx);
            case COLLECT -> enqueue(item.withMode(QueueMode.COLLECT), fx);
            case FOLLOWUP -> enqueue(item.withMode(QueueMode.FOLLOWUP), fx);
        }
    }

    private boolean isIdle() {
        return active == null && followups.isEmpty() && successor == null;
    }

    /** Into the active run if it takes the steer; a followup otherwise, and also for steer-backlog. */
    private void steerOrQueue(QueuedItem item, boolean backlog, Effects fx) {
        boolean alsoQueued = backlog && followups.hasRoomFor(item);
        if (!steering.steer(active, item, alsoQueued, fx) || alsoQueued) {
            enqueue(item.withMode(QueueMode.FOLLOWUP), fx);
        }
    }

    // ---------------------------------------------------------------- followup queue and drains

    private void enqueue(QueuedItem item, Effects fx) {
        FollowupQueue.Offer offer = followups.offer(item, ctx.clock.instant());
        if (!offer.accepted()) {
            if (offer.notifyRejection() && ctx.settings.notifyDrops()) {
                Route route = item.route();
                String text = Notices.rejected(item.settings().cap());
                fx.add(() -> ctx.outbox.send(route, text)); // before the settle: told before it counts as ended
            }
            ctx.settleAll(item, Disposition.REJECTED_NEW, fx);
            return;
        }
        Disposition dropped = offer.summarized() ? Disposition.SUMMARIZED : Disposition.DROPPED_OLD;
        offer.dropped().forEach(victim -> ctx.settleAll(victim, dropped, fx));
        if (active == null) {
            scheduleDrain(fx);
        }
    }

    private void scheduleDrain(Effects fx) {
        drainTimer.cancel();
        drainTimer = Cancellable.NONE;
        if (ctx.stopping) {
            NoticeSender.drops(ctx, followups.releaseForShutdown(), true, fx);
            return;
        }
        Instant due = followups.drainDue(ctx.settings.queueMaxWait(), ctx.clock.instant());
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
        locked(fx -> {
            if (!retired && active == null) {
                scheduleDrain(fx);
            }
        });
    }

    /** Starts the next turn off the queue (see {@link Turn#drained}), after telling senders of drops. */
    private void drainNow(Effects fx) {
        FollowupQueue.Drain drain = followups.take(ctx.clock.instant());
        fx.add(() -> ctx.observer.drainDelayed(drain.delay()));
        NoticeSender.drops(ctx, drain.notices(), false, fx);
        startRun(Turn.drained(drain), fx);
    }

    /**
     * Empties what waits for a turn (lock held): the followups and their overflow, the successor,
     * and with {@code inboundToo} the inbound buffers; no drain follows. Returns the items, in that
     * order, with the drop notices still owed.
     */
    FollowupQueue.Cleared takeWaiting(boolean inboundToo) {
        FollowupQueue.Cleared cleared = followups.clear();
        List<QueuedItem> taken = new ArrayList<>(cleared.items());
        if (successor != null) {
            taken.add(successor);
            successor = null;
        }
        if (inboundToo) {
            taken.addAll(inbound.clear());
        }
        drainTimer.cancel();
        drainTimer = Cancellable.NONE;
        return new FollowupQueue.Cleared(taken, cleared.notices());
    }

    // ---------------------------------------------------------------- runs begin and end

    /** Makes {@code turn} the active run (lock held); once stopping, its items wait in the queue instead. */
    void startRun(Turn turn, Effects fx) {
        if (ctx.stopping) {
            turn.items().forEach(item -> followups.requeue(item, ctx.clock.instant()));
            return;
        }
        Run run = new Run(ctx.nextRunId(), turn, ctx.clock.instant());
        active = run;
        fx.add(() -> runs.requestLane(run));
    }

    /**
     * Ends the active run (lock held): settles its messages and starts what comes next: the
     * interrupting successor, else a drain, else the session retires. A notice about the run (its
     * failure, a skip) must be in {@code fx} before this call, so it goes out before the settles.
     */
    void endRun(Run run, Disposition disposition, Effects fx) {
        run.end();
        run.items.forEach(item -> ctx.settleAll(item, disposition, fx));
        active = null;
        interrupts.runEnded();
        fx.add(ctx.idle::signal);
        if (ctx.stopping) {
            NoticeSender.drops(ctx, followups.releaseForShutdown(), true, fx);
            return;
        }
        if (successor != null) {
            QueuedItem next = successor;
            successor = null;
            startRun(Turn.alone(next), fx);
        } else if (!followups.isEmpty()) {
            scheduleDrain(fx);
        } else {
            retireIfIdle(fx);
        }
    }

    /**
     * Ends a run stopped by a shutdown without settling anything (lock held): its messages (and its
     * steers) stay pending in the journal and run again after the restart (runs are at-least-once).
     * Drops still to report are reported now; no drain follows.
     */
    void endForShutdown(Run run, Effects fx) {
        run.end();
        run.steered.clear();
        NoticeSender.drops(ctx, followups.releaseForShutdown(), true, fx);
        active = null;
        interrupts.runEnded();
        fx.add(ctx.idle::signal);
    }

    /** {@code /stop}: see {@link Interrupts#stop}; returns how many messages were discarded. */
    int stop() {
        return lockedGet(fx -> retired ? 0 : interrupts.stop(fx));
    }

    /** Aborts the active run on shutdown; its messages stay accounted as run. */
    void abortForShutdown() {
        locked(interrupts::abortForShutdown);
    }

    // ---------------------------------------------------------------- typing, retirement, status

    private void refreshTyping() {
        locked(fx -> {
            if (!retired) {
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
        followups.items().forEach(item -> routes.add(item.route()));
        inbound.addRoutes(routes);
        return routes;
    }

    /** Leaves the registry once nothing is running or waiting (lock held). */
    void retireIfIdle(Effects fx) {
        if (!isIdle() || !inbound.isEmpty() || retired) {
            return;
        }
        retired = true;
        typing.stop();
        drainTimer.cancel();
        ctx.sessions.remove(key, this);
        fx.add(ctx.idle::signal);
    }

    /** Queued messages (followups, an interrupting successor, inbound buffers). */
    int queuedMessages() {
        return underLock(() -> followups.messageCount() + (successor == null ? 0 : successor.tickets().size())
                + inbound.messageCount());
    }

    /** How long the active run has existed, or null when there is none. */
    Duration activeRunAge(Instant now) {
        return underLock(() -> active == null ? null : Duration.between(active.createdAt, now));
    }

    /** What the session is doing now, for status pages. */
    String state() {
        return underLock(() -> {
            if (active != null) {
                return "running";
            }
            if (!followups.isEmpty() || successor != null) {
                return "draining";
            }
            return inbound.isEmpty() ? "idle" : "debouncing";
        });
    }

    boolean hasActiveRun() {
        return underLock(() -> active != null);
    }

    /** Whether the calling thread holds this session's lock (for checks of the lock discipline). */
    boolean lockHeldByCurrentThread() {
        return lock.isHeldByCurrentThread();
    }

    // ---------------------------------------------------------------- the lock

    /** Runs {@code step} with the lock held, then, with the lock released, the effects it collected. */
    void locked(Consumer<Effects> step) {
        Effects fx = new Effects();
        lock.lock();
        try {
            step.accept(fx);
        } finally {
            lock.unlock();
            fx.run();
        }
    }

    /** As {@link #locked(Consumer)}, returning what {@code step} returns. */
    <T> T lockedGet(Function<Effects, T> step) {
        Effects fx = new Effects();
        lock.lock();
        try {
            return step.apply(fx);
        } finally {
            lock.unlock();
            fx.run();
        }
    }

    /** Runs {@code step} with the lock held, for a step that has no side effects to carry out. */
    <T> T underLock(Supplier<T> step) {
        lock.lock();
        try {
            return step.get();
        } finally {
            lock.unlock();
        }
    }
}
