package dev.laneway.core.engine;

import dev.laneway.core.Disposition;
import dev.laneway.core.Route;
import dev.laneway.core.lane.LanePermit;
import dev.laneway.core.time.Scheduler.Cancellable;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Interrupt, {@code /stop} and shutdown (docs/behaviour.md §3.4, §6.4 and §9.4):
 * what aborting does to the active run in each of its states, what waiting work is discarded, and
 * who is told. An interrupt tells each affected sender once that their messages were skipped (the
 * queued ones, the waiting run's and the run's unanswered steers); an interrupting message that is
 * still waiting when the grace period ends tells its sender the old run is still shutting down,
 * and runs when that run finally ends. A stop settles what it discards as stopped and says how
 * many messages that was; a shutdown settles nothing, so its messages run after the restart.
 *
 * <p>Works on its {@link SessionQueue}'s state, guarded by the session lock: every method is called
 * with the lock held, except the grace timer's callback, which takes it.
 */
final class Interrupts {

    private final SessionQueue session;
    private final EngineContext ctx;
    private final Steering steering;
    private Cancellable graceTimer = Cancellable.NONE;   // guarded by the session lock

    Interrupts(SessionQueue session, EngineContext ctx, Steering steering) {
        this.session = session;
        this.ctx = ctx;
        this.steering = steering;
    }

    /** {@code interrupt} mode in a busy session: discard what waits, abort the run, then run {@code item}. */
    void interrupt(QueuedItem item, Effects fx) {
        Run run = session.active;
        // once per sender for the whole interruption: queued items, the waiting run's items and the
        // run's unseen steers; a later interrupt of a run already shutting down is a new interruption
        Set<String> told = run != null && run.abortCause == null ? run.toldInterrupted : new HashSet<>();
        discardWaiting(Disposition.INTERRUPTED, told, fx);
        if (run == null) {
            session.startRun(Turn.alone(item), fx);
            return;
        }
        session.successor = item;
        abort(run, Run.AbortCause.INTERRUPT, fx);
        if (session.active == run && graceTimer == Cancellable.NONE) {
            graceTimer = ctx.scheduler.schedule(ctx.settings.interruptGrace(), () -> graceExpired(run));
        }
    }

    /** Takes the session lock. */
    private void graceExpired(Run run) {
        session.locked(fx -> {
            graceTimer = Cancellable.NONE;
            QueuedItem successor = session.successor;
            if (session.active == run && successor != null) {
                Route route = successor.route();
                fx.add(() -> ctx.outbox.send(route, Notices.STILL_SHUTTING_DOWN));
            }
        });
    }

    /** The active run ended: no grace notice for it any more. */
    void runEnded() {
        graceTimer.cancel();
        graceTimer = Cancellable.NONE;
    }

    /**
     * {@code /stop}: aborts the active run and clears everything waiting; returns how many messages
     * were discarded (queued ones, those of a run that had not started or waited to retry, and
     * steers that can no longer be answered).
     */
    int stop(Effects fx) {
        int cleared = discardWaiting(Disposition.STOPPED, new HashSet<>(), fx);
        Run run = session.active;
        if (run != null) {
            if (run.state().isOneOf(Run.State.WAITING, Run.State.RETRY_WAIT)) {
                cleared += run.messageCount();
            }
            abort(run, Run.AbortCause.STOP, fx);
            cleared += steering.stopUnanswered(run, fx);
        }
        session.retireIfIdle(fx);
        return cleared;
    }

    /** Aborts the active run, if any, for a shutdown; its messages stay accounted as run. */
    void abortForShutdown(Effects fx) {
        if (session.active != null) {
            abort(session.active, Run.AbortCause.SHUTDOWN, fx);
        }
    }

    /**
     * Discards everything waiting (see {@link SessionQueue#takeWaiting}; for a stop also the inbound
     * buffers). Every sender with drops still to report is told now; for an interrupt each affected
     * sender not in {@code told} is told once. Returns the number of messages discarded.
     */
    private int discardWaiting(Disposition disposition, Set<String> told, Effects fx) {
        FollowupQueue.Cleared discarded = session.takeWaiting(disposition == Disposition.STOPPED);
        // notices first: each reaches the outbox before the settles of the messages it is about
        NoticeSender.drops(ctx, discarded.notices(), true, fx);
        if (disposition == Disposition.INTERRUPTED) {
            NoticeSender.oncePerSender(ctx, discarded.items(), Notices.INTERRUPTED, told, fx);
        }
        int count = 0;
        for (QueuedItem item : discarded.items()) {
            ctx.settleAll(item, disposition, fx);
            count += item.tickets().size();
        }
        return count;
    }

    /**
     * Aborts {@code run}. A run still waiting for a lane or a retry ends here; a starting or running
     * one is asked to abort and ends when its agent completes.
     */
    private void abort(Run run, Run.AbortCause cause, Effects fx) {
        Run.State before = run.state();
        // an interrupted or stopped run sends nothing more; a run cut by a shutdown still delivers
        // what it already produced (its message then counts as answered)
        run.abort(cause);
        switch (before) {
            case WAITING -> {
                CompletableFuture<LanePermit> wait = run.laneWait;
                if (wait != null) {
                    fx.add(() -> wait.cancel(false));
                }
                run.releasePermits(fx);
                endWithoutAgent(run, cause, fx);
            }
            case RETRY_WAIT -> {
                run.retryTimer.cancel();
                endWithoutAgent(run, cause, fx);
            }
            case STARTING, RUNNING, SHUTTING_DOWN, ABORTING -> {
                var handle = run.agentRun;
                if (handle != null) {
                    fx.add(() -> AgentCalls.abort(handle, fx)); // a fatal error is rethrown once every effect ran
                }
            }
            case ENDED, ABORTED -> throw new IllegalStateException("run " + run.id + ": aborted after it ended");
        }
    }

    /** Ends an aborted run that has no agent running (waiting for a lane or a retry). */
    private void endWithoutAgent(Run run, Run.AbortCause cause, Effects fx) {
        switch (cause) {
            case SHUTDOWN -> session.endForShutdown(run, fx);
            case STOP -> session.endRun(run, Disposition.STOPPED, fx);
            case INTERRUPT -> {
                NoticeSender.oncePerSender(ctx, run.items, Notices.INTERRUPTED, run.toldInterrupted, fx);
                session.endRun(run, Disposition.INTERRUPTED, fx); // after the notice: told before it counts as ended
            }
        }
    }
}
