package dev.laneway.core.engine;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.SteerScope;
import dev.laneway.core.agent.RunOutcome;
import dev.laneway.core.agent.SteerMessage;
import dev.laneway.core.agent.SteerResult;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Steering (docs/behaviour.md §4): whether a message steers the active run, and how the steers a run
 * accepted end with it. A steer counts as answered only when the model saw it and the run
 * answered; otherwise it runs again as a followup at its original position, unless the run was
 * interrupted or stopped, which ends it the same way. Only a message of the run's own conversation
 * and sender authority steers it.
 *
 * <p>A run may answer before it ends (a final answer, then one more model call for the steers that
 * came meanwhile): once such a reply is delivered, the run's own messages and the steers it
 * answered are recorded answered in the journal at once ({@link #answered}), so a crash while the
 * run goes on runs none of them again; they end as answered whatever the run's outcome.
 *
 * <p>Decides and returns: it changes no state of the session (the steers to run again are handed
 * back, and the session re-queues them). Not thread-safe: every method is called with the owning
 * {@link SessionQueue}'s lock held, except {@link #answeredWithoutSteers}, which says why it needs
 * none. Its
 * one foreign call, {@code AgentRun.steer}, is made under that lock: the SPI requires it not to
 * block, and it makes "steer accepted" and "run completed" totally ordered.
 */
final class Steering {

    private final SteerScope scope;
    private final NoticeSender notices;
    private final Settlement settlement;

    // receipts on the messages (docs/behaviour.md §16.5): a steered message shows it
    private final Receipts receipts;

    Steering(SteerScope scope, NoticeSender notices, Settlement settlement, Receipts receipts) {
        this.receipts = receipts;
        this.scope = scope;
        this.notices = notices;
        this.settlement = settlement;
    }

    /**
     * Offers {@code item} to the active run as a steer when the run can take one now (its agent is
     * running and it is not being aborted), the item is of the run's {@link Audience}, and
     * {@code steer.scope} lets this sender steer it. Returns whether the agent accepted it; an
     * accepted steer is remembered on the run, with {@code backlog} when the same item also waits as
     * a followup (steer-backlog).
     *
     * <p>The audience rule holds whatever {@code steer.scope} says. A steer is answered in the run's
     * conversation, so a message of another one (another channel's DM with {@code dmScope: main},
     * another thread with {@code groupScope: chat}) would get its answer in someone else's chat; and
     * it runs with the run's permissions, so a guest's text never steers an admin's run (docs/decisions.md
     * D5). Such a message waits as a followup, in a turn of its own audience.
     */
    /** The steer an item makes: its text with its attachments' markers, and the attachments (docs/behaviour.md §15.3). */
    static SteerMessage message(QueuedItem item) {
        return new SteerMessage(item.seq(), PromptFormatter.agentText(item), item.last().senderName(), item.steerFiles());
    }

    boolean steer(Run run, QueuedItem item, boolean backlog, Effects fx) {
        if (run == null || run.state() != Run.State.RUNNING || run.agentRun == null
                || !run.audience().equals(item.audience()) || !scopeAllows(run, item)) {
            return false;
        }
        var message = message(item);
        if (AgentCalls.steer(run.agentRun, message, fx) != SteerResult.ACCEPTED) {
            return false;
        }
        run.steered.add(new Run.Steered(item, backlog));
        if (run.receiptsBeforeOutput != null) {
            List<Ticket> tickets = item.tickets();
            fx.add(() -> receipts.steered(run, tickets));
        }
        return true;
    }

    /**
     * A delivered reply of {@code run} answered {@code steers} (ids the agent reported; possibly
     * none): the run's own messages, the first time, and those steers not yet answered are recorded
     * answered once that reply is out, steers first. A steer-backlog steer is left alone: its own
     * followup turn still owes it an answer. Nothing happens for a run already ended or aborted (its
     * end records its messages).
     */
    void answered(Run run, List<SteerMessage> steers, Effects fx) {
        if (!run.state().isOneOf(Run.State.STARTING, Run.State.RUNNING, Run.State.SHUTTING_DOWN)) {
            return; // it ended, or it was silenced: its end records its messages
        }
        Set<Long> ids = new HashSet<>();
        steers.forEach(steer -> ids.add(steer.id()));
        List<Ticket> tickets = new ArrayList<>();
        for (Run.Steered steered : run.steered) {
            long seq = steered.item().seq();
            if (!steered.backlog() && ids.contains(seq) && run.answeredSteers().add(seq)) {
                tickets.addAll(steered.item().tickets());
            }
        }
        boolean items = run.claimItemsAnswered();
        if (items) {
            tickets.addAll(run.tickets());
        }
        if (!tickets.isEmpty()) {
            fx.add(() -> {
                settlement.answeredBeforeEnd(run.route, tickets, () -> !run.silenced(), run.delivery);
                if (items) {
                    run.itemsRecordQueued = true;
                }
            });
        }
    }

    /**
     * As {@link #answered} for a reply that answers no steer, called without the session lock, on
     * the thread that replied, before the reply is queued: the action that records the run's own
     * messages answered, the first time (null otherwise), for the caller to queue right behind that
     * reply; the caller then sets {@link Run#itemsRecordQueued}. It reads only the run's volatile
     * state and its compare-and-set claim on its messages (a steer's bookkeeping needs the lock;
     * this needs none). A run that ends meanwhile is no different from one that ends right after
     * {@link #answered}: that decision's record, too, was queued only once the lock was released.
     */
    Runnable answeredWithoutSteers(Run run) {
        if (!run.state().isOneOf(Run.State.STARTING, Run.State.RUNNING, Run.State.SHUTTING_DOWN)) {
            return null; // it ended, or it was silenced: its end records its messages
        }
        if (!run.claimItemsAnswered()) {
            return null;
        }
        return settlement.answeredRecord(run.tickets(), () -> !run.silenced(), run.delivery);
    }

    private boolean scopeAllows(Run run, QueuedItem item) {
        InboundMessage message = item.last();
        return scope == SteerScope.SESSION || message.direct()
                || message.senderId().equals(run.senderId);
    }

    /**
     * Settles the steers of a run whose agent finished, and returns those that run again. A run that
     * did not complete and delivered nothing (failed, retried, aborted) answered no steer, so its
     * steers run again as followups at their original position (the session re-queues the returned
     * items); an interrupted or stopped run's end with it. A steer a delivered reply answered
     * ({@link #answered}) ends as steered whatever the outcome.
     */
    List<QueuedItem> resolve(Run run, RunOutcome outcome, Effects fx) {
        if (run.steered.isEmpty()) {
            return List.of(); // most runs: nothing steered them
        }
        Set<Long> unseen = new HashSet<>();
        outcome.unseenSteers().forEach(steer -> unseen.add(steer.id()));
        boolean answeredNothing = !(outcome instanceof RunOutcome.Completed) && !run.delivered;
        record Ending(QueuedItem item, Disposition disposition) { }
        List<Ending> endings = new ArrayList<>();
        List<QueuedItem> interrupted = new ArrayList<>();
        List<QueuedItem> again = new ArrayList<>();
        for (Run.Steered steered : run.steered) {
            QueuedItem item = steered.item();
            if (steered.backlog()) {
                continue;
            }
            Disposition disposition = null;
            if (run.answeredSteers().contains(item.seq()) || !unseen.contains(item.seq()) && !answeredNothing) {
                disposition = Disposition.STEERED;
            } else if (run.abortCause == Run.AbortCause.STOP) {
                disposition = Disposition.STOPPED;
            } else if (run.abortCause == Run.AbortCause.INTERRUPT) {
                disposition = Disposition.INTERRUPTED;
                interrupted.add(item);
            } else {
                again.add(item.withMode(QueueMode.FOLLOWUP));
            }
            if (disposition != null) {
                endings.add(new Ending(item, disposition));
            }
        }
        // the skip notice first: it reaches the outbox before the settles of the messages it is about
        notices.oncePerSender(interrupted, Notices.INTERRUPTED, run.toldInterrupted(), fx);
        endings.forEach(ending -> settlement.settleAll(ending.item(), ending.disposition(), run.delivery, fx));
        run.steered.clear();
        return again;
    }

    /**
     * Steers of a run stopped before it delivered anything: the run will send nothing more, so no
     * steer of it can be answered; they end as stopped now (and count as cleared). Steers of a run
     * that already delivered text are left to its outcome: those the model saw end as steered.
     * Returns how many messages it stopped.
     */
    int stopUnanswered(Run run, Effects fx) {
        if (run.delivered || run.state() != Run.State.ABORTING) { // called right after the stop's abort
            return 0;
        }
        int count = 0;
        for (Run.Steered steered : run.steered) {
            if (!steered.backlog()) {
                settlement.settleAll(steered.item(), Disposition.STOPPED, fx);
                count += steered.item().tickets().size();
            }
        }
        run.steered.removeIf(steered -> !steered.backlog());
        return count;
    }
}
