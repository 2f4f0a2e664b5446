package dev.laneway.core.engine;

import dev.laneway.core.Disposition;
import dev.laneway.core.lane.LanePermit;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Interrupt, {@code /stop} and shutdown (docs/behaviour.md §3.4, §6.4 and §9.4): what aborting
 * does to the active run in each of its states, what discarded work ends as, and who is told. An
 * interrupt tells each affected sender once that their messages were skipped (the queued ones, the
 * waiting run's and the run's unanswered steers); a stop settles what it discards as stopped; a
 * shutdown settles nothing, so its messages run after the restart.
 *
 * <p>Decides and returns: it changes no state of the session. {@link SessionQueue} takes what
 * waits, hands it here to be told about and settled, and carries out the {@link RunEnd} that
 * {@link #abort} returns. Called with the session lock held; sends and aborts go out through
 * {@link Effects}. Stateless.
 */
final class Interrupts {

    private final NoticeSender notices;
    private final Settlement settlement;

    Interrupts(NoticeSender notices, Settlement settlement) {
        this.notices = notices;
        this.settlement = settlement;
    }

    /**
     * The senders already told about the interruption of {@code run} (may be null): once per sender
     * for the whole interruption (queued items, the waiting run's items and the run's unseen steers);
     * a later interrupt of a run already being aborted is a new interruption.
     */
    Set<String> toldFor(Run run) {
        return run != null && run.abortCause == null ? run.toldInterrupted() : new HashSet<>();
    }

    /**
     * Ends what was discarded ({@link SessionQueue#takeWaiting}) with {@code disposition}. Every
     * sender with drops still to report is told now; for an interrupt each affected sender not in
     * {@code told} is told once. Returns the number of messages discarded.
     */
    int discard(FollowupQueue.Cleared discarded, Disposition disposition, Set<String> told, Effects fx) {
        // notices first: each reaches the outbox before the settles of the messages it is about
        notices.drops(discarded.notices(), true, fx);
        if (disposition == Disposition.INTERRUPTED) {
            notices.oncePerSender(discarded.items(), Notices.INTERRUPTED, told, fx);
        }
        int count = 0;
        for (QueuedItem item : discarded.items()) {
            settlement.settleAll(item, disposition, fx);
            count += item.tickets().size();
        }
        return count;
    }

    /**
     * Aborts {@code run} and says how it ends: a run still waiting for a lane or a retry ends now;
     * a starting or running one is asked to abort and ends when its agent stops.
     */
    RunEnd abort(Run run, Run.AbortCause cause, Effects fx) {
        Run.State before = run.state();
        // an interrupted or stopped run sends nothing more; a run cut by a shutdown still delivers
        // what it already produced (its message then counts as answered)
        run.abort(cause);
        return switch (before) {
            case WAITING -> {
                CompletableFuture<LanePermit> wait = run.laneWait;
                if (wait != null) {
                    fx.add(() -> wait.cancel(false));
                }
                run.releasePermits(fx);
                yield endWithoutAgent(run, cause, fx);
            }
            case RETRY_WAIT -> {
                run.retryTimer.cancel();
                yield endWithoutAgent(run, cause, fx);
            }
            case STARTING, RUNNING, SHUTTING_DOWN, ABORTING -> {
                var handle = run.agentRun;
                if (handle != null) {
                    fx.add(() -> AgentCalls.abort(handle, fx)); // a fatal error is rethrown once every effect ran
                }
                yield RunEnd.WHEN_AGENT_STOPS;
            }
            case ENDED, ABORTED -> throw new IllegalStateException("run " + run.id + ": aborted after it ended");
        };
    }

    /** How an aborted run that has no agent running (waiting for a lane or a retry) ends. */
    private RunEnd endWithoutAgent(Run run, Run.AbortCause cause, Effects fx) {
        return switch (cause) {
            case SHUTDOWN -> RunEnd.LEFT_PENDING;
            case STOP -> new RunEnd.Settled(Disposition.STOPPED);
            case INTERRUPT -> {
                // the notice first: told before it counts as ended
                notices.oncePerSender(run.items, Notices.INTERRUPTED, run.toldInterrupted(), fx);
                yield new RunEnd.Settled(Disposition.INTERRUPTED);
            }
            case DEADLINE -> throw new IllegalStateException("run " + run.id + ": a deadline with no agent running");
        };
    }
}
