package dev.laneway.core.engine;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.Route;
import dev.laneway.core.SessionKey;
import dev.laneway.core.SteerScope;
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
import java.util.concurrent.locks.ReentrantLock;

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
 * <h2>Concurrency</h2>
 * {@code lock} guards every mutable field of this class and of its {@link Run}s (except the run's
 * volatile event-gate flags). Decisions are made under the lock; side effects (sends, lane
 * requests, aborts, agent starts) are collected in {@link Effects} and carried out after the lock
 * is released. The one foreign call made under the lock is {@code AgentRun.steer}, which the SPI
 * requires to be non-blocking; it makes "steer accepted" and "run completed" totally ordered.
 * Agent completions arrive on the executor and re-enter through {@link #finished}.
 */
final class SessionQueue {

    private final SessionKey key;
    private final EngineContext ctx;
    private final ReentrantLock lock = new ReentrantLock();

    private Run active;                                               // guarded by lock
    private final FollowupQueue followups = new FollowupQueue();      // guarded by lock
    private Cancellable drainTimer = Cancellable.NONE;                // guarded by lock
    private QueuedItem successor;                                     // guarded by lock; runs after an interrupted run
    private Cancellable graceTimer = Cancellable.NONE;                // guarded by lock
    // sender id -> inbound debounce buffer; guarded by lock
    private final Map<String, InboundBuffer> inbound = new LinkedHashMap<>();
    private Route typingRoute;                                        // guarded by lock
    private Cancellable typingTimer = Cancellable.NONE;               // guarded by lock
    private boolean retired;                                          // guarded by lock

    SessionQueue(SessionKey key, EngineContext ctx) {
        this.key = key;
        this.ctx = ctx;
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
            showTyping(item.route(), fx);
            InboundMessage message = item.last();
            InboundBuffer buffer = inbound.get(message.senderId());
            boolean debounceable = !inboundDebounce.isZero() && !message.text().isBlank()
                    && message.attachments().isEmpty();
            if (debounceable && (buffer != null || isIdle())) {
                bufferInbound(item, buffer, inboundDebounce, inboundMaxWait);
                return true;
            }
            if (buffer != null) {
                flushInbound(message.senderId(), fx);
            }
            offer(item, fx);
        } finally {
            lock.unlock();
            fxRun(fx);
        }
        return true;
    }

    /** Offers a sender's buffered inbound messages now (a command or media from them arrived). */
    boolean flushInbound(String senderId) {
        Effects fx = new Effects();
        lock.lock();
        try {
            if (retired) {
                return false;
            }
            flushInbound(senderId, fx);
        } finally {
            lock.unlock();
            fxRun(fx);
        }
        return true;
    }

    private void offer(QueuedItem item, Effects fx) {
        if (isIdle()) {
            startRun(List.of(item), item.text(), item.route(), Disposition.RAN, fx);
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
            if (steer(run, item) == SteerResult.ACCEPTED) {
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

    private SteerResult steer(Run run, QueuedItem item) {
        try {
            SteerMessage message = new SteerMessage(item.seq(), item.text(), item.last().senderName());
            SteerResult result = run.agentRun.steer(List.of(message));
            return result == null ? SteerResult.REFUSED : result;
        } catch (RuntimeException e) {
            return SteerResult.REFUSED;
        }
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
        Instant due = followups.drainDue(ctx.settings.queueMaxWait());
        if (due == null || ctx.stopping) {
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

    /** Starts the next turn from the head of the queue: a collect batch or one followup item. */
    private void drainNow(Effects fx) {
        FollowupQueue.Drain drain = followups.take(ctx.clock.instant());
        ctx.observer.drainDelayed(drain.delay());
        if (ctx.settings.notifyDrops()) {
            for (DropTally tally : drain.notices()) {
                Route route = tally.route;
                String text = tally.summarized > 0 && tally.dropped == 0
                        ? Notices.summarized(tally.cap, tally.summarized)
                        : Notices.dropped(tally.cap, tally.dropped + tally.summarized);
                fx.add(() -> ctx.outbox.send(route, text));
            }
        }
        List<QueuedItem> batch = drain.batch();
        QueuedItem head = batch.get(0);
        if (drain.collect()) {
            Route route = batch.get(batch.size() - 1).route();
            String prompt = PromptFormatter.collect(batch, drain.summary(), !head.last().direct());
            startRun(batch, prompt, route, Disposition.COLLECTED, fx);
        } else {
            startRun(batch, PromptFormatter.followup(head, drain.summary()), head.route(), Disposition.RAN, fx);
        }
    }

    // ---------------------------------------------------------------- interrupt and stop

    private void interrupt(QueuedItem item, Effects fx) {
        discardQueued(Disposition.INTERRUPTED, fx);
        Run run = active;
        if (run == null) {
            startRun(List.of(item), item.text(), item.route(), Disposition.RAN, fx);
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

    /** {@code /stop}: aborts the active run and clears everything queued; returns the cleared count. */
    int stop() {
        Effects fx = new Effects();
        int cleared;
        lock.lock();
        try {
            if (retired) {
                return 0;
            }
            cleared = discardQueued(Disposition.STOPPED, fx);
            Run run = active;
            if (run != null) {
                cleared += run.steered.stream().filter(s -> !s.backlog()).mapToInt(s -> s.item().tickets().size()).sum();
                if (run.state == Run.State.WAITING || run.state == Run.State.RETRY_WAIT) {
                    cleared += run.messageCount();
                }
                abort(run, Run.AbortCause.STOP, fx);
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
     * Discards everything queued (items, successor, inbound buffers, overflow); for an interrupt
     * each affected sender is told once. Returns the number of messages discarded.
     */
    private int discardQueued(Disposition disposition, Effects fx) {
        List<QueuedItem> discarded = new ArrayList<>(followups.clear());
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
        if (disposition == Disposition.INTERRUPTED) {
            notifyOncePerSender(discarded, Notices.INTERRUPTED, fx);
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
                    notifyOncePerSender(run.items, Notices.INTERRUPTED, fx);
                }
                endRun(run, disposition, null, fx);
            }
            case RETRY_WAIT -> {
                run.retryTimer.cancel();
                switch (cause) {
                    case SHUTDOWN -> endForShutdown(run, fx);
                    case STOP -> endRun(run, Disposition.STOPPED, null, fx);
                    case INTERRUPT -> {
                        notifyOncePerSender(run.items, Notices.INTERRUPTED, fx);
                        endRun(run, Disposition.INTERRUPTED, null, fx);
                    }
                }
            }
            case STARTING, RUNNING -> {
                var handle = run.agentRun;
                if (handle != null) {
                    fx.add(() -> abortGuarded(handle));
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

    private void notifyOncePerSender(List<QueuedItem> affected, String text, Effects fx) {
        Map<String, Route> routes = new LinkedHashMap<>();
        affected.forEach(item -> routes.put(item.last().senderId(), item.route()));
        routes.values().forEach(route -> fx.add(() -> ctx.outbox.send(route, text)));
    }

    // ---------------------------------------------------------------- runs

    private void startRun(List<QueuedItem> batch, String prompt, Route route, Disposition disposition, Effects fx) {
        if (ctx.stopping) {
            batch.forEach(item -> followups.requeue(item, ctx.clock.instant()));
            return;
        }
        QueuedItem last = batch.get(batch.size() - 1);
        Run run = new Run(ctx.nextRunId(), batch, prompt, route, disposition, !last.last().direct(),
                last.last().senderId(), ctx.clock.instant());
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
            if (permit != null) {
                onPermit(run, permit);
            }
        });
    }

    private void onPermit(Run run, LanePermit permit) {
        boolean launch = false;
        boolean giveBack = false;
        lock.lock();
        try {
            if (run.state != Run.State.WAITING) {
                giveBack = true;
            } else {
                run.permits.add(permit);
                run.laneWait = null;
                if (run.permits.size() == 2) {
                    run.state = Run.State.STARTING;
                    launch = true;
                }
            }
        } finally {
            lock.unlock();
        }
        if (giveBack) {
            permit.close();
        } else if (launch) {
            ctx.executor.execute(() -> launch(run));
        } else {
            requestLane(run);
        }
    }

    private void launch(Run run) {
        var request = new RunRequest(run.id, key, run.prompt, run.route, run.group,
                run.senderId, run.attempt);
        lock.lock();
        try {
            if (run.state != Run.State.STARTING) {
                return;
            }
            run.startedAt = ctx.clock.instant();
        } finally {
            lock.unlock();
        }
        String agentName = ctx.agents.apply(key).name();
        var events = new GatedRunEvents(run, ctx.outbox, () -> ctx.observer.agentRetried(agentName));
        AgentRun handle;
        try {
            handle = ctx.agents.apply(key).start(request, events);
            if (handle == null) {
                handle = FailedAgentRun.of("agent error: no run");
            }
        } catch (RuntimeException e) {
            handle = FailedAgentRun.of("agent error: " + e.getClass().getSimpleName());
        }
        boolean abortNow;
        lock.lock();
        try {
            run.agentRun = handle;
            if (run.state == Run.State.STARTING) {
                run.state = Run.State.RUNNING;
            }
            abortNow = run.abortCause != null;
        } finally {
            lock.unlock();
        }
        if (abortNow) {
            abortGuarded(handle);
        }
        java.util.concurrent.CompletionStage<RunOutcome> completion;
        try {
            completion = handle.completion();
        } catch (RuntimeException e) {
            completion = java.util.concurrent.CompletableFuture.completedFuture(RunOutcome.Failed.of("agent error", false));
        }
        completion.whenComplete((outcome, error) -> ctx.executor.execute(() ->
                finished(run, outcome != null ? outcome : RunOutcome.Failed.of("agent error", false))));
    }

    private static void abortGuarded(AgentRun handle) {
        try {
            handle.abort();
        } catch (RuntimeException e) {
            org.slf4j.LoggerFactory.getLogger(SessionQueue.class).warn("agent abort failed: {}", e.toString());
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
            String failure = outcome instanceof RunOutcome.Failed failed ? failed.reason() : null;
            endRun(run, run.disposition, failure, fx);
            RunLog.finished(run, key, ctx.clock.instant(), outcome, ctx.agents.apply(key).name(), ctx.observer);
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
        notifyOncePerSender(interrupted, Notices.INTERRUPTED, fx);
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
        if (failureReason != null) {
            fx.add(() -> ctx.outbox.send(run.route, Notices.failure(failureReason)));
        }
        fx.add(() -> ctx.outbox.runEnded(run.route));
        active = null;
        graceTimer.cancel();
        graceTimer = Cancellable.NONE;
        fx.add(ctx.idle::signal);
        if (ctx.stopping) {
            return;
        }
        if (successor != null) {
            QueuedItem next = successor;
            successor = null;
            startRun(List.of(next), next.text(), next.route(), Disposition.RAN, fx);
        } else if (!followups.isEmpty()) {
            scheduleDrain(fx);
        } else {
            retireIfIdle(fx);
        }
    }

    /**
     * Ends a run stopped by a shutdown without settling anything: its messages (and its steers)
     * stay pending in the journal and run again after the restart (runs are at-least-once).
     */
    private void endForShutdown(Run run, Effects fx) {
        run.state = Run.State.ENDED;
        run.steered.clear();
        active = null;
        graceTimer.cancel();
        graceTimer = Cancellable.NONE;
        fx.add(ctx.idle::signal);
    }

    // ---------------------------------------------------------------- inbound debounce

    private void bufferInbound(QueuedItem item, InboundBuffer existing, Duration debounce, Duration maxWait) {
        Instant now = ctx.clock.instant();
        InboundBuffer buffer = existing;
        if (buffer == null) {
            buffer = new InboundBuffer(now);
            inbound.put(item.last().senderId(), buffer);
        }
        buffer.items.add(item);
        buffer.timer.cancel();
        Instant due = now.plus(debounce);
        if (!maxWait.isZero() && buffer.firstAt.plus(maxWait).isBefore(due)) {
            due = buffer.firstAt.plus(maxWait);
        }
        String sender = item.last().senderId();
        buffer.timer = ctx.scheduler.schedule(Duration.between(now, due), () -> flushInbound(sender));
    }

    private void flushInbound(String senderId, Effects fx) {
        InboundBuffer buffer = inbound.remove(senderId);
        if (buffer == null) {
            return;
        }
        buffer.timer.cancel();
        offer(buffer.combined(), fx);
    }

    // ---------------------------------------------------------------- typing, status, retirement

    private void showTyping(Route route, Effects fx) {
        var refresh = ctx.typingRefresh(route.channel());
        if (refresh.isEmpty()) {
            return;
        }
        boolean newPlace = typingRoute == null || !typingRoute.sameConversation(route);
        typingRoute = route;
        if (newPlace) {
            fx.add(() -> ctx.outbox.typing(route));
        }
        if (typingTimer == Cancellable.NONE) {
            typingTimer = ctx.scheduler.schedule(refresh.get(), this::refreshTyping);
        }
    }

    private void refreshTyping() {
        Effects fx = new Effects();
        lock.lock();
        try {
            typingTimer = Cancellable.NONE;
            if (retired || (isIdle() && inbound.isEmpty()) || typingRoute == null) {
                return;
            }
            Route route = typingRoute;
            fx.add(() -> ctx.outbox.typing(route));
            ctx.typingRefresh(route.channel()).ifPresent(refresh ->
                    typingTimer = ctx.scheduler.schedule(refresh, this::refreshTyping));
        } finally {
            lock.unlock();
            fxRun(fx);
        }
    }

    private void retireIfIdle(Effects fx) {
        if (!isIdle() || !inbound.isEmpty() || retired) {
            return;
        }
        retired = true;
        typingTimer.cancel();
        typingTimer = Cancellable.NONE;
        typingRoute = null;
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
