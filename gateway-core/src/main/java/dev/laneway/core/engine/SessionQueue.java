package dev.laneway.core.engine;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.Route;
import dev.laneway.core.SessionKey;
import dev.laneway.core.SteerScope;
import dev.laneway.core.agent.Agent;
import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.agent.RunOutcome;
import dev.laneway.core.agent.RunRequest;
import dev.laneway.core.agent.SteerMessage;
import dev.laneway.core.agent.SteerResult;
import dev.laneway.core.lane.LanePermit;
import dev.laneway.core.lane.Lanes;
import dev.laneway.core.time.Scheduler.Cancellable;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-session state machine of queue-semantics.md sections 3 to 7: one active run at a time,
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
 * Separately, inbound debounce buffers (spec section 7) collect an idle session's messages per
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
 * <h2>Concurrency</h2>
 * {@code lock} guards every mutable field of this class and of its {@link Run}s (except the run's
 * volatile event-gate flags). Decisions are made under the lock; side effects (sends, lane
 * requests, aborts, agent starts) are collected in {@link Effects} and carried out after the lock
 * is released. The one foreign call made under the lock is {@code AgentRun.steer}, which the SPI
 * requires to be non-blocking; it makes "steer accepted" and "run completed" totally ordered.
 * Agent completions arrive on the executor and re-enter through {@link #finished}.
 */
final class SessionQueue {

    private static final Logger log = LoggerFactory.getLogger(SessionQueue.class);
    private final SessionKey key;
    private final EngineContext ctx;
    private final ReentrantLock lock = new ReentrantLock();

    private Run active;                                               // guarded by lock
    private final FollowupQueue followups = new FollowupQueue();      // guarded by lock
    private Cancellable drainTimer = Cancellable.NONE;                // guarded by lock
    private QueuedItem successor;                                     // guarded by lock; runs after an interrupted run
    private Cancellable graceTimer = Cancellable.NONE;                // guarded by lock
    // sender key (channel, account, sender id) -> inbound debounce buffer; guarded by lock
    private final Map<String, InboundBuffer> inbound = new LinkedHashMap<>();
    private final TypingIndicator typing;                             // guarded by lock
    private boolean retired;                                          // guarded by lock

    SessionQueue(SessionKey key, EngineContext ctx) {
        this.key = key;
        this.ctx = ctx;
        this.typing = new TypingIndicator(ctx, this::refreshTyping);
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
        Effects fx = new Effects();
        lock.lock();
        try {
            if (retired) {
                return false;
            }
            typing.accepted(item.route(), fx);
            InboundMessage message = item.last();
            InboundBuffer buffer = inbound.get(item.senderKey());
            boolean debounceable = !inboundDebounce.isZero() && !message.text().isBlank()
                    && message.attachments().isEmpty();
            if (debounceable && (buffer != null || isIdle())) {
                bufferInbound(item, buffer, inboundDebounce, inboundMaxWait);
                return true;
            }
            if (buffer != null) {
                flushBuffer(item.senderKey(), fx);
            }
            offer(item, fx);
        } finally {
            lock.unlock();
            fxRun(fx);
        }
        return true;
    }

    /**
     * Offers a sender's buffered inbound messages now (a command or media from them arrived). Flushes
     * the buffers of every channel where this sender id has one: flushing early only shortens a wait.
     */
    boolean flushInbound(String senderId) {
        Effects fx = new Effects();
        lock.lock();
        try {
            if (retired) {
                return false;
            }
            List<String> senders = new ArrayList<>();
            inbound.forEach((sender, buffer) -> {
                if (buffer.items.get(0).last().senderId().equals(senderId)) {
                    senders.add(sender);
                }
            });
            senders.forEach(sender -> flushBuffer(sender, fx));
        } finally {
            lock.unlock();
            fxRun(fx);
        }
        return true;
    }

    private void offer(QueuedItem item, Effects fx) {
        if (isIdle()) {
            startRun(List.of(item), item, item.text(), item.route(), Disposition.RAN, fx);
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

    private boolean isIdle() {
        return active == null && followups.isEmpty() && successor == null;
    }

    // ---------------------------------------------------------------- steer

    private void steerOrQueue(QueuedItem item, boolean backlog, Effects fx) {
        Run run = active;
        if (run != null && run.state == Run.State.RUNNING && run.abortCause == null && run.agentRun != null
                && steerScopeAllows(run, item)) {
            boolean keepAsFollowup = backlog && followups.hasRoomFor(item);
            if (steer(run, item, fx) == SteerResult.ACCEPTED) {
                run.steered.add(new Run.Steered(item, keepAsFollowup));
                if (keepAsFollowup) {
                    enqueue(item.withMode(QueueMode.FOLLOWUP), fx);
                }
                return;
            }
        }
        enqueue(item.withMode(QueueMode.FOLLOWUP), fx);
    }

    private boolean steerScopeAllows(Run run, QueuedItem item) {
        InboundMessage message = item.last();
        return ctx.settings.steerScope() == SteerScope.SESSION || message.direct()
                || message.senderId().equals(run.senderId);
    }

    private SteerResult steer(Run run, QueuedItem item, Effects fx) {
        return AgentCalls.steer(run.agentRun, new SteerMessage(item.seq(), item.text(), item.last().senderName()), fx);
    }

    // ---------------------------------------------------------------- followup queue, cap, drop

    private void enqueue(QueuedItem item, Effects fx) {
        FollowupQueue.Offer offer = followups.offer(item, ctx.clock.instant());
        if (!offer.accepted()) {
            ctx.settleAll(item, Disposition.REJECTED_NEW);
            if (offer.notifyRejection() && ctx.settings.notifyDrops()) {
                Route route = item.route();
                String text = Notices.rejected(item.settings().cap());
                fx.add(() -> ctx.outbox.send(route, text));
            }
            return;
        }
        Disposition dropped = offer.summarized() ? Disposition.SUMMARIZED : Disposition.DROPPED_OLD;
        offer.dropped().forEach(victim -> ctx.settleAll(victim, dropped));
        if (active == null) {
            scheduleDrain(fx);
        }
    }

    private void scheduleDrain(Effects fx) {
        drainTimer.cancel();
        drainTimer = Cancellable.NONE;
        if (ctx.stopping) {
            sendDropNotices(followups.releaseForShutdown(), true, fx);
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
        Effects fx = new Effects();
        lock.lock();
        try {
            if (!retired && active == null) {
                scheduleDrain(fx);
            }
        } finally {
            lock.unlock();
            fxRun(fx);
        }
    }

    /**
     * Starts the next turn: an overflow summary no queued item of its audience can carry (replying
     * to the last dropped message), else a collect batch or one followup item.
     */
    private void drainNow(Effects fx) {
        FollowupQueue.Drain drain = followups.take(ctx.clock.instant());
        ctx.observer.drainDelayed(drain.delay());
        sendDropNotices(drain.notices(), false, fx);
        List<QueuedItem> batch = drain.batch();
        if (batch.isEmpty()) {
            QueuedItem lead = drain.overflow().lastDropped;
            startRun(batch, lead, PromptFormatter.overflowOnly(drain.summary()), lead.route(), Disposition.RAN, fx);
            return;
        }
        QueuedItem head = batch.get(0);
        if (drain.collect()) {
            QueuedItem last = batch.get(batch.size() - 1);
            String prompt = PromptFormatter.collect(batch, drain.summary(), !head.last().direct());
            startRun(batch, last, prompt, last.route(), Disposition.COLLECTED, fx);
        } else {
            startRun(batch, head, PromptFormatter.followup(head, drain.summary()), head.route(), Disposition.RAN, fx);
        }
    }

    /**
     * Tells each sender about their dropped messages (unless {@code notifyDrops: false}). When the
     * summaries will not run after all ({@code summariesLost}: the queue was cleared, or the gateway
     * is stopping), summarized messages are reported as dropped.
     */
    private void sendDropNotices(List<DropTally> tallies, boolean summariesLost, Effects fx) {
        if (!ctx.settings.notifyDrops()) {
            return;
        }
        for (DropTally tally : tallies) {
            Route route = tally.route;
            String text = tally.summarized > 0 && tally.dropped == 0 && !summariesLost
                    ? Notices.summarized(tally.cap, tally.summarized)
                    : Notices.dropped(tally.cap, tally.dropped + tally.summarized);
            fx.add(() -> ctx.outbox.send(route, text));
        }
    }

    // ---------------------------------------------------------------- interrupt and stop

    private void interrupt(QueuedItem item, Effects fx) {
        Run run = active;
        // once per sender for the whole interruption: queued items, the waiting run's items and the
        // run's unseen steers; a later interrupt of a run already shutting down is a new interruption
        Set<String> told = run != null && run.abortCause == null ? run.toldInterrupted : new HashSet<>();
        discardQueued(Disposition.INTERRUPTED, told, fx);
        if (run == null) {
            startRun(List.of(item), item, item.text(), item.route(), Disposition.RAN, fx);
            return;
        }
        successor = item;
        abort(run, Run.AbortCause.INTERRUPT, fx);
        if (active == run && graceTimer == Cancellable.NONE) {
            graceTimer = ctx.scheduler.schedule(ctx.settings.interruptGrace(), () -> graceExpired(run));
        }
    }

    private void graceExpired(Run run) {
        Effects fx = new Effects();
        lock.lock();
        try {
            graceTimer = Cancellable.NONE;
            if (active == run && successor != null) {
                Route route = successor.route();
                fx.add(() -> ctx.outbox.send(route, Notices.STILL_SHUTTING_DOWN));
            }
        } finally {
            lock.unlock();
            fxRun(fx);
        }
    }

    /**
     * {@code /stop}: aborts the active run and clears everything queued; returns how many messages
     * were discarded (queued ones, those of a run that had not started or waited to retry, and
     * steers that can no longer be answered).
     */
    int stop() {
        Effects fx = new Effects();
        int cleared;
        lock.lock();
        try {
            if (retired) {
                return 0;
            }
            cleared = discardQueued(Disposition.STOPPED, new HashSet<>(), fx);
            Run run = active;
            if (run != null) {
                if (run.state == Run.State.WAITING || run.state == Run.State.RETRY_WAIT) {
                    cleared += run.messageCount();
                }
                abort(run, Run.AbortCause.STOP, fx);
                cleared += discardUnansweredSteers(run);
            }
            retireIfIdle(fx);
        } finally {
            lock.unlock();
            fxRun(fx);
        }
        return cleared;
    }

    /** Aborts the active run on shutdown; its messages stay accounted as run. */
    void abortForShutdown() {
        Effects fx = new Effects();
        lock.lock();
        try {
            if (active != null) {
                abort(active, Run.AbortCause.SHUTDOWN, fx);
            }
        } finally {
            lock.unlock();
            fxRun(fx);
        }
    }

    /**
     * Steers of a run stopped before it delivered anything: the run will send nothing more, so no
     * steer of it can be answered; they end as stopped now (and count as cleared). Steers of a run
     * that already delivered text are left to its outcome: those the model saw end as steered.
     */
    private int discardUnansweredSteers(Run run) {
        if (run.delivered || (run.state != Run.State.STARTING && run.state != Run.State.RUNNING)) {
            return 0;
        }
        int count = 0;
        for (Run.Steered steered : run.steered) {
            if (!steered.backlog()) {
                ctx.settleAll(steered.item(), Disposition.STOPPED);
                count += steered.item().tickets().size();
            }
        }
        run.steered.removeIf(steered -> !steered.backlog());
        return count;
    }

    /**
     * Discards everything queued (items, successor, overflow; for a stop also inbound buffers). Every
     * sender with drops still to report is told now; for an interrupt each affected sender not in
     * {@code told} is told once. Returns the number of messages discarded.
     */
    private int discardQueued(Disposition disposition, Set<String> told, Effects fx) {
        FollowupQueue.Cleared cleared = followups.clear();
        List<QueuedItem> discarded = new ArrayList<>(cleared.items());
        if (successor != null) {
            discarded.add(successor);
            successor = null;
        }
        if (disposition == Disposition.STOPPED) {
            inbound.values().forEach(buffer -> {
                buffer.timer.cancel();
                discarded.addAll(buffer.items);
            });
            inbound.clear();
        }
        drainTimer.cancel();
        drainTimer = Cancellable.NONE;
        int count = 0;
        for (QueuedItem item : discarded) {
            ctx.settleAll(item, disposition);
            count += item.tickets().size();
        }
        sendDropNotices(cleared.notices(), true, fx);
        if (disposition == Disposition.INTERRUPTED) {
            notifyOncePerSender(discarded, Notices.INTERRUPTED, told, fx);
        }
        return count;
    }

    private void abort(Run run, Run.AbortCause cause, Effects fx) {
        if (run.abortCause == null) {
            run.abortCause = cause;
        }
        if (cause != Run.AbortCause.SHUTDOWN) {
            // an interrupted or stopped run sends nothing more; a run cut by a shutdown still
            // delivers what it already produced (its message then counts as answered)
            run.aborted = true;
        }
        switch (run.state) {
            case WAITING -> {
                CompletableFuture<LanePermit> wait = run.laneWait;
                if (wait != null) {
                    fx.add(() -> wait.cancel(false));
                }
                releasePermits(run.permits, fx);
                run.permits.clear();
                if (cause == Run.AbortCause.SHUTDOWN) {
                    endForShutdown(run, fx);
                    return;
                }
                Disposition disposition = cause == Run.AbortCause.STOP ? Disposition.STOPPED : Disposition.INTERRUPTED;
                if (cause == Run.AbortCause.INTERRUPT) {
                    notifyOncePerSender(run.items, Notices.INTERRUPTED, run.toldInterrupted, fx);
                }
                endRun(run, disposition, null, fx);
            }
            case RETRY_WAIT -> {
                run.retryTimer.cancel();
                switch (cause) {
                    case SHUTDOWN -> endForShutdown(run, fx);
                    case STOP -> endRun(run, Disposition.STOPPED, null, fx);
                    case INTERRUPT -> {
                        notifyOncePerSender(run.items, Notices.INTERRUPTED, run.toldInterrupted, fx);
                        endRun(run, Disposition.INTERRUPTED, null, fx);
                    }
                }
            }
            case STARTING, RUNNING -> {
                var handle = run.agentRun;
                if (handle != null) {
                    fx.add(() -> AgentCalls.abort(handle));
                }
            }
            case ENDED -> { }
        }
    }

    /** Gives permits back in reverse order of acquisition (main, then the session lane). */
    private static void releasePermits(List<LanePermit> permits, Effects fx) {
        List<LanePermit> held = List.copyOf(permits);
        for (int i = held.size() - 1; i >= 0; i--) {
            fx.add(held.get(i)::close);
        }
    }

    /** Sends {@code text} once to each sender of {@code affected} not yet in {@code told} (at their last message). */
    private void notifyOncePerSender(List<QueuedItem> affected, String text, Set<String> told, Effects fx) {
        Map<String, Route> routes = new LinkedHashMap<>();
        affected.forEach(item -> routes.put(item.senderKey(), item.route()));
        routes.forEach((sender, route) -> {
            if (told.add(sender)) {
                fx.add(() -> ctx.outbox.send(route, text));
            }
        });
    }

    // ---------------------------------------------------------------- runs

    /** @param lead the item naming the run's sender (see {@link Run#Run}) */
    private void startRun(List<QueuedItem> batch, QueuedItem lead, String prompt, Route route, Disposition disposition,
                          Effects fx) {
        if (ctx.stopping) {
            batch.forEach(item -> followups.requeue(item, ctx.clock.instant()));
            return;
        }
        Run run = new Run(ctx.nextRunId(), batch, lead, prompt, route, disposition, ctx.clock.instant());
        active = run;
        fx.add(() -> requestLane(run));
    }

    /** Asks for the run's next lane: its session lane first, then {@code main}. */
    private void requestLane(Run run) {
        String lane;
        lock.lock();
        try {
            if (run.state != Run.State.WAITING) {
                return;
            }
            lane = run.permits.isEmpty() ? key.laneName() : Lanes.MAIN;
        } finally {
            lock.unlock();
        }
        var wait = ctx.lanes.acquire(lane);
        boolean stale;
        lock.lock();
        try {
            stale = run.state != Run.State.WAITING;
            if (!stale) {
                run.laneWait = wait;
            }
        } finally {
            lock.unlock();
        }
        if (stale) {
            wait.cancel(false);
        }
        wait.whenComplete((permit, error) -> {
            if (permit == null) {
                return;
            }
            try {
                onPermit(run, permit);
            } catch (Throwable e) {
                // a future would swallow it: say so (a fatal error from an agent was logged already)
                log.error("run {} of session {} failed after its {} permit was granted", run.id, key, permit.lane(), e);
                throw e;
            }
        });
    }

    private void onPermit(Run run, LanePermit permit) {
        Effects fx = new Effects();
        boolean launch = false;
        boolean nextLane = false;
        lock.lock();
        try {
            if (run.state != Run.State.WAITING) {
                fx.add(permit::close);
            } else {
                run.permits.add(permit);
                run.laneWait = null;
                if (ctx.stopping) {
                    endBeforeStart(run, fx);
                } else if (run.permits.size() == 2) {
                    run.state = Run.State.STARTING;
                    launch = true;
                } else {
                    nextLane = true;
                }
            }
        } finally {
            lock.unlock();
            fxRun(fx);
        }
        if (launch) {
            dispatch(() -> launch(run));
        } else if (nextLane) {
            requestLane(run);
        }
    }

    /**
     * A shutdown began before the run's agent started: no new run starts, so the run gives its
     * permits back and ends without settling anything; its messages run after the restart.
     */
    private void endBeforeStart(Run run, Effects fx) {
        releasePermits(run.permits, fx);
        run.permits.clear();
        endForShutdown(run, fx);
    }

    /**
     * Starts the agent of a run holding both permits. Whatever the agent throws, the run ends through
     * {@link #finished} (permits back, failure reply); a fatal error is rethrown after that.
     */
    private void launch(Run run) {
        Effects fx = new Effects();
        lock.lock();
        try {
            if (run.state != Run.State.STARTING) {
                return;
            }
            if (ctx.stopping) {
                endBeforeStart(run, fx);
                return;
            }
            run.startedAt = ctx.clock.instant();
        } finally {
            lock.unlock();
            fxRun(fx);
        }
        var request = new RunRequest(run.id, key, run.prompt, run.route, run.group, run.senderId, run.attempt);
        Agent agent = ctx.agents.apply(key);
        String name = AgentCalls.name(agent);
        var started = AgentCalls.start(agent, request, new GatedRunEvents(run, ctx.outbox, () -> ctx.observer.agentRetried(name)));
        AgentRun handle = started.value() != null ? started.value() : FailedAgentRun.of(reason(started.failure()));
        boolean abortNow;
        lock.lock();
        try {
            run.agentRun = handle;
            run.agentName = name;
            if (run.state == Run.State.STARTING) {
                run.state = Run.State.RUNNING;
            }
            abortNow = run.abortCause != null;
        } finally {
            lock.unlock();
        }
        if (abortNow) {
            AgentCalls.abort(handle);
        }
        if (started.failure() != null) {
            failBeforeCompletion(run, started.failure());
            return;
        }
        var completion = AgentCalls.completion(handle, request);
        if (completion.failure() != null) {
            failBeforeCompletion(run, completion.failure());
            return;
        }
        completion.value().whenComplete((outcome, error) -> dispatch(() ->
                finished(run, outcome != null ? outcome : RunOutcome.Failed.of("agent error", false))));
    }

    /**
     * The agent threw before handing over a completion: the run ends here, on this executor thread
     * (permits back, failure reply), and only then is a fatal error rethrown.
     */
    private void failBeforeCompletion(Run run, Throwable failure) {
        finished(run, RunOutcome.Failed.of(reason(failure), false));
        AgentCalls.rethrowIfFatal(failure);
    }

    private static String reason(Throwable failure) {
        return "agent error: " + failure.getClass().getSimpleName();
    }

    /** Hands a task to the executor; runs it here if the executor refuses it (it is shutting down). */
    private void dispatch(Runnable task) {
        try {
            ctx.executor.execute(task);
        } catch (RejectedExecutionException e) {
            task.run();
        }
    }

    /** A run's agent completed: give back permits, settle, retry or move on to the next turn. */
    void finished(Run run, RunOutcome outcome) {
        Effects fx = new Effects();
        lock.lock();
        try {
            if (run.state != Run.State.STARTING && run.state != Run.State.RUNNING) {
                return;
            }
            releasePermits(run.permits, fx);
            run.permits.clear();
            if (run.startedAt != null) {
                ctx.admission.recordRun(Duration.between(run.startedAt, ctx.clock.instant()));
            }
            if (run.abortCause == Run.AbortCause.SHUTDOWN && outcome instanceof RunOutcome.Aborted && !run.delivered) {
                endForShutdown(run, fx);
                return;
            }
            resolveSteers(run, outcome, fx);
            if (shouldRetry(run, outcome)) {
                scheduleRetry(run);
                return;
            }
            // an aborted run sends nothing more, not even a failure notice
            String failure = outcome instanceof RunOutcome.Failed failed && !run.aborted ? failed.reason() : null;
            endRun(run, run.disposition, failure, fx);
            RunLog.finished(run, key, ctx.clock.instant(), outcome, run.agentName, ctx.observer);
        } finally {
            lock.unlock();
            fxRun(fx);
        }
    }

    /**
     * Settles or re-queues the run's steers. A steer counts as answered only when the model saw it
     * and the run answered: a run that did not complete and delivered nothing (failed, retried,
     * aborted) answered no steer, so its steers run again as followups at their original position.
     */
    private void resolveSteers(Run run, RunOutcome outcome, Effects fx) {
        Set<Long> unseen = new HashSet<>();
        outcome.unseenSteers().forEach(steer -> unseen.add(steer.id()));
        boolean answeredNothing = !(outcome instanceof RunOutcome.Completed) && !run.delivered;
        List<QueuedItem> interrupted = new ArrayList<>();
        for (Run.Steered steered : run.steered) {
            QueuedItem item = steered.item();
            if (steered.backlog()) {
                continue;
            }
            if (!unseen.contains(item.seq()) && !answeredNothing) {
                ctx.settleAll(item, Disposition.STEERED);
            } else if (run.abortCause == Run.AbortCause.STOP) {
                ctx.settleAll(item, Disposition.STOPPED);
            } else if (run.abortCause == Run.AbortCause.INTERRUPT) {
                ctx.settleAll(item, Disposition.INTERRUPTED);
                interrupted.add(item);
            } else {
                followups.requeue(item.withMode(QueueMode.FOLLOWUP), ctx.clock.instant());
            }
        }
        notifyOncePerSender(interrupted, Notices.INTERRUPTED, run.toldInterrupted, fx);
        run.steered.clear();
    }

    private boolean shouldRetry(Run run, RunOutcome outcome) {
        return outcome instanceof RunOutcome.Failed failed && failed.retryable() && !run.delivered
                && run.abortCause == null && run.attempt <= ctx.settings.failureRetries();
    }

    private void scheduleRetry(Run run) {
        Duration backoff = ctx.settings.retryBackoff().multipliedBy(1L << Math.min(20, run.attempt - 1));
        run.attempt++;
        run.state = Run.State.RETRY_WAIT;
        run.agentRun = null;
        run.retryTimer = ctx.scheduler.schedule(backoff, () -> retry(run));
    }

    private void retry(Run run) {
        Effects fx = new Effects();
        lock.lock();
        try {
            if (run.state != Run.State.RETRY_WAIT) {
                return;
            }
            if (ctx.stopping) {
                endForShutdown(run, fx);
                return;
            }
            run.state = Run.State.WAITING;
        } finally {
            lock.unlock();
            fxRun(fx);
        }
        requestLane(run);
    }

    /** Ends the active run: settles its messages, reports a failure, and starts what comes next. */
    private void endRun(Run run, Disposition disposition, String failureReason, Effects fx) {
        run.state = Run.State.ENDED;
        run.items.forEach(item -> ctx.settleAll(item, disposition));
        if (failureReason != null && !run.aborted) {
            fx.add(() -> ctx.outbox.send(run.route, Notices.failure(failureReason)));
        }
        active = null;
        graceTimer.cancel();
        graceTimer = Cancellable.NONE;
        fx.add(ctx.idle::signal);
        if (ctx.stopping) {
            sendDropNotices(followups.releaseForShutdown(), true, fx);
            return;
        }
        if (successor != null) {
            QueuedItem next = successor;
            successor = null;
            startRun(List.of(next), next, next.text(), next.route(), Disposition.RAN, fx);
        } else if (!followups.isEmpty()) {
            scheduleDrain(fx);
        } else {
            retireIfIdle(fx);
        }
    }

    /**
     * Ends a run stopped by a shutdown without settling anything: its messages (and its steers)
     * stay pending in the journal and run again after the restart (runs are at-least-once). Drops
     * still to report are reported now; no drain follows.
     */
    private void endForShutdown(Run run, Effects fx) {
        run.state = Run.State.ENDED;
        run.steered.clear();
        sendDropNotices(followups.releaseForShutdown(), true, fx);
        active = null;
        graceTimer.cancel();
        graceTimer = Cancellable.NONE;
        fx.add(ctx.idle::signal);
    }

    // ---------------------------------------------------------------- inbound debounce

    private void bufferInbound(QueuedItem item, InboundBuffer existing, Duration debounce, Duration maxWait) {
        Instant now = ctx.clock.instant();
        InboundBuffer buffer = existing;
        String sender = item.senderKey();
        if (buffer == null) {
            buffer = new InboundBuffer(now);
            inbound.put(sender, buffer);
        }
        buffer.items.add(item);
        buffer.timer.cancel();
        Instant due = now.plus(debounce);
        if (!maxWait.isZero() && buffer.firstAt.plus(maxWait).isBefore(due)) {
            due = buffer.firstAt.plus(maxWait);
        }
        buffer.timer = ctx.scheduler.schedule(Duration.between(now, due), () -> flushBufferLater(sender));
    }

    private void flushBufferLater(String sender) {
        Effects fx = new Effects();
        lock.lock();
        try {
            if (!retired) {
                flushBuffer(sender, fx);
            }
        } finally {
            lock.unlock();
            fxRun(fx);
        }
    }

    private void flushBuffer(String sender, Effects fx) {
        InboundBuffer buffer = inbound.remove(sender);
        if (buffer == null) {
            return;
        }
        buffer.timer.cancel();
        offer(buffer.combined(), fx);
    }

    // ---------------------------------------------------------------- typing, status, retirement

    private void refreshTyping() {
        Effects fx = new Effects();
        lock.lock();
        try {
            if (!retired) {
                typing.refresh(workRoutes(), fx);
            }
        } finally {
            lock.unlock();
            fxRun(fx);
        }
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
        inbound.values().forEach(buffer -> buffer.items.forEach(item -> routes.add(item.route())));
        return routes;
    }

    private void retireIfIdle(Effects fx) {
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
        lock.lock();
        try {
            int count = followups.messageCount();
            count += successor == null ? 0 : successor.tickets().size();
            for (InboundBuffer buffer : inbound.values()) {
                count += buffer.items.size();
            }
            return count;
        } finally {
            lock.unlock();
        }
    }

    /** How long the active run has existed, or null when there is none. */
    Duration activeRunAge(Instant now) {
        lock.lock();
        try {
            return active == null ? null : Duration.between(active.createdAt, now);
        } finally {
            lock.unlock();
        }
    }

    /** What the session is doing now, for status pages. */
    String state() {
        lock.lock();
        try {
            if (active != null) {
                return "running";
            }
            if (!followups.isEmpty() || successor != null) {
                return "draining";
            }
            return inbound.isEmpty() ? "idle" : "debouncing";
        } finally {
            lock.unlock();
        }
    }

    boolean hasActiveRun() {
        lock.lock();
        try {
            return active != null;
        } finally {
            lock.unlock();
        }
    }

    private static void fxRun(Effects fx) {
        fx.run();
    }
}
