package dev.laneway.core.engine;

import dev.laneway.core.Route;
import dev.laneway.core.channel.Streaming;
import dev.laneway.core.SessionKey;
import dev.laneway.core.agent.Agent;
import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.agent.RunOutcome;
import dev.laneway.core.agent.RunRequest;
import dev.laneway.core.agent.SteerMessage;
import dev.laneway.core.lane.LanePermit;
import dev.laneway.core.lane.Lanes;
import dev.laneway.core.time.Scheduler.Cancellable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a session's runs from their lane requests to their agents' outcomes (docs/behaviour.md §2,
 * §5.7 and §11): a run holds its session's slot from the moment its session makes it (the session
 * has one active run at a time: see {@link SessionQueue}, docs/decisions.md D89), then waits for
 * ({@code cron} for a scheduled job's run) {@code main}, whose slots the scheduler hands out by
 * class and tenant; its agent starts on
 * the executor, only while it holds them all and the gateway is not stopping; its completion comes back
 * through the executor; a retryable failure of a run that delivered nothing waits for an
 * exponential backoff and queues for its lanes again. Every exit path gives every permit back.
 * Each attempt has a deadline, its agent's run timeout from the moment it starts: when it passes,
 * the run is aborted and ended at once (permits back; the user gets the failure notice, unless an
 * interrupt, stop or shutdown was already ending it), without waiting for the agent to stop, so an
 * agent that never finishes (a model that sends only keep-alives) cannot hold a lane for ever.
 *
 * <p>Its methods are called without the session lock (lane, executor, agent and timer callbacks)
 * and take it ({@link SessionLock}) for each decision: a run that starts at once takes it four
 * times (the grant, the launch, the agent started with its deadline, the completion; a reply that
 * names no steer takes it not at all). Agent calls and lane requests are made with it released;
 * {@link #requestLane} is the one place a run asks for a lane. It changes no state of the session: how a run ends is handed, as a {@link RunEnd},
 * to {@link Ends} (the session, which carries it out), with the steers {@link Steering#resolve}
 * hands back to run again.
 */
final class RunDriver {

    private static final Logger log = LoggerFactory.getLogger(RunDriver.class);
    /** The lane scheduled jobs' runs hold (its cap: {@code lanes.cron.maxConcurrent}). */
    static final String CRON_LANE = "cron";
    /**
     * The lane a degraded run holds instead of {@code main} (its cap: {@code lanes.fallback.maxConcurrent};
     * docs/behaviour.md §13.3).
     */
    static final String FALLBACK_LANE = "fallback";

    /** Where the driver hands its decisions: the run's session, which carries them out. */
    interface Ends {
        /** Steers of the run that run again as followups, at their original position (lock held). */
        void requeue(List<QueuedItem> steers);

        /** The run ends so (lock held). */
        void ended(Run run, RunEnd end, Effects fx);
    }

    private final SessionKey key;
    private final SessionLock lock;
    private final EngineContext ctx;
    private final Steering steering;
    private final Ends ends;

    /** What a granted permit leads to. */
    private enum Next { LAUNCH, NEXT_LANE, NOTHING }

    RunDriver(SessionKey key, SessionLock lock, EngineContext ctx, Steering steering, Ends ends) {
        this.key = key;
        this.lock = lock;
        this.ctx = ctx;
        this.steering = steering;
        this.ends = ends;
    }

    /**
     * Asks for the run's next lane (it holds its session's slot already): {@code cron} for a
     * scheduled job's run, then {@code main} from the scheduler, by the run's class and tenant. A
     * slot free at once is taken without a future; otherwise the run queues for one. Only a
     * scheduled job's run, whose next lane depends on what it holds, takes the session lock to ask;
     * any other run's is fixed, and its state is volatile (the grant looks again under the lock,
     * and gives back a permit that came too late).
     */
    void requestLane(Run run) {
        String lane = run.scheduled
                ? lock.underLock(() -> run.state() != Run.State.WAITING ? null : nextLane(run))
                : run.state() != Run.State.WAITING ? null : nextLane(run);
        if (lane == null) {
            return;
        }
        boolean main = lane.equals(Lanes.MAIN);
        // the common case: granted at once, no future
        LanePermit free = main ? ctx.scheduling.main.acquireIfFree(run.claim) : ctx.lanes.acquireIfFree(lane);
        if (free != null) {
            permitted(run, free);
            return;
        }
        var wait = main ? ctx.scheduling.main.acquire(run.claim) : ctx.lanes.acquire(lane);
        boolean stale = lock.underLock(() -> {
            if (run.state() != Run.State.WAITING) { // aborted or ended meanwhile
                return true;
            }
            run.laneWait = wait;
            return false;
        });
        if (stale) {
            wait.cancel(false);
        }
        wait.whenComplete((permit, error) -> {
            if (permit != null) {
                permitted(run, permit);
            }
        });
    }

    /**
     * The lane the run asks for next, by how many it holds (see {@link Run#lanesNeeded}; lock held
     * for a scheduled job's run): {@code cron} for a scheduled job's run, then {@code main}, or for a
     * degraded run the {@code fallback} lane (a plain FIFO lane: the scheduler's line is what it
     * skips). {@code scheduled} and {@code degraded} never change.
     */
    private String nextLane(Run run) {
        if (run.scheduled && run.permits.isEmpty()) {
            return CRON_LANE;
        }
        return run.degraded ? FALLBACK_LANE : Lanes.MAIN;
    }

    /**
     * The run got {@code permit}, at once or later on the thread that freed it. What fails from here
     * on (the agent's start, on this thread when the executor runs tasks inline) is logged and goes
     * no further, as a future's callback would swallow it; a fatal error from an agent was logged
     * already, and the run has ended with its permits back.
     */
    private void permitted(Run run, LanePermit permit) {
        try {
            onPermit(run, permit);
        } catch (Throwable e) {
            log.error("run {} of session {} failed after its {} permit was granted", run.id, key, permit.lane(), e);
        }
    }

    private void onPermit(Run run, LanePermit permit) {
        switch (lock.lockedGet(fx -> granted(run, permit, fx))) {
            case LAUNCH -> dispatch(() -> launch(run));
            case NEXT_LANE -> requestLane(run);
            case NOTHING -> { }
        }
    }

    /** The run got {@code permit} (lock held): it launches once it holds every lane it needs. */
    private Next granted(Run run, LanePermit permit, Effects fx) {
        if (run.state() != Run.State.WAITING) { // a late grant: the run was aborted or ended meanwhile
            fx.add(permit::close);
            return Next.NOTHING;
        }
        run.permits.add(permit);
        run.laneWait = null;
        if (ctx.stopping) {
            endBeforeStart(run, fx);
            return Next.NOTHING;
        }
        if (run.permits.size() == run.lanesNeeded()) {
            run.moveTo(Run.State.STARTING);
            return Next.LAUNCH;
        }
        return Next.NEXT_LANE;
    }

    /**
     * A shutdown began before the run's agent started (lock held): no new run starts, so the run
     * gives its permits back and ends without settling anything; its messages run after the restart.
     */
    private void endBeforeStart(Run run, Effects fx) {
        run.releasePermits(fx);
        ends.ended(run, RunEnd.LEFT_PENDING, fx);
    }

    /**
     * Starts the agent of a run holding all its permits. Whatever the agent throws, the run ends through
     * {@link #finished} (permits back, failure reply), or is wired to its completion; a fatal error
     * is rethrown only after that. A fatal error from asking the agent's name fails the run before
     * its agent starts; one from an abort (the run was interrupted while starting) is rethrown once
     * the run is wired to its completion, so it ends when its agent stops.
     */
    private void launch(Run run) {
        record Start(Agent agent, int launch, int attempt) { }
        Start start = lock.lockedGet(fx -> {
            // an abort while starting lets the agent start, to be aborted at once; an ended run starts nothing
            if (!run.state().isOneOf(Run.State.STARTING, Run.State.ABORTING, Run.State.SHUTTING_DOWN)) {
                return null;
            }
            if (ctx.stopping) {
                endBeforeStart(run, fx);
                return null;
            }
            run.startedAtMillis = ctx.clock.millis();
            run.launch++;
            if (run.receiptsBeforeOutput != null) {
                fx.add(() -> ctx.receipts.running(run)); // before the agent starts, so before any output
            }
            // a scheduled job's own agent, when the roster does not know it (docs/behaviour.md §12), else the ladder's
            Agent agent = run.rung == 0 && run.ownAgent != null ? run.ownAgent : ctx.agents.agent(run.agent());
            return new Start(agent, run.launch, run.attempt);
        });
        if (start == null) {
            return;
        }
        var request = new RunRequest(run.id, key, run.prompt, run.route, run.group, run.senderId, start.attempt(),
                run.claim, run.files);
        Agent agent = start.agent();
        var named = AgentCalls.name(agent);
        if (Fatal.is(named.failure())) {
            failBeforeCompletion(run, named.failure());
            return;
        }
        String name = named.value();
        Duration timeout = AgentCalls.runTimeout(agent);
        // the deadline runs from before the agent starts; it is handed to the run with the agent's
        // handle below (the list is thread-safe, and until then only this deadline can end the attempt)
        int launch = start.launch();
        Cancellable deadline = ctx.deadlines.add(timeout, () -> deadlinePassed(run, launch, timeout));
        Streaming streaming = ctx.streaming(run.route);
        LiveAnswer live = streaming.on() ? new LiveAnswer(run.route, key, ctx.outbox, ctx.scheduler, ctx.clock,
                streaming.minEditInterval(), () -> !run.silenced() && run.launch == launch, run.delivery,
                ctx.settings.maxAnswerChars(), liveTrace(run)) : null;
        if (live != null) { // a route that streams does so on every launch, so a null live is never stale
            lock.underLock(() -> {
                run.live = live;
                return null;
            });
        }
        var events = new GatedRunEvents(run, start.launch(), key, ctx.outbox, ctx.settings.maxAnswerChars(),
                () -> ctx.observer.agentRetried(name), new GatedRunEvents.Answers() {
                    @Override
                    public Runnable recordBehind() {
                        return steering.answeredWithoutSteers(run); // the common reply: no lock needed
                    }

                    @Override
                    public void answered(List<SteerMessage> steers) {
                        lock.locked(fx -> steering.answered(run, steers, fx));
                    }
                }, live, ctx.receipts);
        var started = AgentCalls.start(agent, request, events);
        AgentRun handle = started.value() != null ? started.value() : FailedAgentRun.of(reason(started.failure()));
        boolean abortNow = lock.underLock(() -> {
            if (run.launch == launch) {
                run.deadlineTimer = deadline;
            } else {
                deadline.cancel(); // its deadline ended this attempt already, and the run moved on
            }
            run.agentRun = handle;
            run.agentName = name;
            if (run.state() == Run.State.STARTING) { // else it was aborted, or ended by its deadline, meanwhile
                run.moveTo(Run.State.RUNNING);
            }
            return run.abortCause != null;
        });
        // holds a fatal error from the abort until the run is wired or ended (none without an abort)
        Effects afterwards = abortNow ? new Effects() : null;
        try {
            if (afterwards != null) {
                AgentCalls.abort(handle, afterwards);
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
            if (completion.value() instanceof CompletableFuture<RunOutcome> done && done.isDone()) {
                RunOutcome outcome = outcomeOf(done); // completed already (a quick agent): no callback to wire
                dispatch(() -> finished(run, outcome));
            } else {
                completion.value().whenComplete((outcome, error) -> dispatch(() ->
                        finished(run, outcome != null ? outcome : RunOutcome.Failed.of("agent error", false))));
            }
        } finally {
            if (afterwards != null) {
                afterwards.run();
            }
        }
    }

    /**
     * The agent threw before handing over a completion: the run ends here, on this executor thread
     * (permits back, failure reply), and only then is a fatal error rethrown.
     */
    private void failBeforeCompletion(Run run, Throwable failure) {
        finished(run, RunOutcome.Failed.of(reason(failure), false));
        Fatal.rethrowIfFatal(failure);
    }

    /** The outcome of a completed future, as {@code whenComplete} would hand it over (a failure: agent error). */
    private static RunOutcome outcomeOf(CompletableFuture<RunOutcome> done) {
        RunOutcome outcome;
        try {
            outcome = done.join();
        } catch (CompletionException | CancellationException e) {
            outcome = null;
        }
        return outcome != null ? outcome : RunOutcome.Failed.of("agent error", false);
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
    private void finished(Run run, RunOutcome outcome) {
        lock.locked(fx -> {
            if (!run.state().agentPhase()) {
                return; // it ended already (its deadline passed): the agent's late outcome changes nothing
            }
            end(run, outcome, fx);
        });
    }

    /**
     * The run completed without a word for the user (no reply, or only blank ones): the user is told
     * so, the answer is logged at WARN and counted; the messages still count as answered (lock held).
     */
    private void emptyAnswer(Run run, Effects fx) {
        Route route = run.route;
        String agent = run.agentName;
        String runId = run.id;
        fx.add(() -> {
            log.warn("run {} of session {}: agent '{}' returned an empty answer; the user is told", runId,
                    key, agent);
            ctx.observer.emptyAnswer(agent);
            ctx.outbox.send(route, Notices.EMPTY_ANSWER);
        });
    }

    /**
     * The start {@code launch} of {@code run} is still going when its run timeout has passed: it is
     * aborted and ends now, as if its agent had stopped, whether or not the agent ever does (its late
     * outcome is then ignored). A run nobody was ending yet fails with
     * {@code timed out after <duration>}; one an interrupt, stop or shutdown was already ending ends
     * as that would have ended it. Steers nothing answered run again as followups. Takes the lock.
     */
    private void deadlinePassed(Run run, int launch, Duration timeout) {
        lock.locked(fx -> {
            if (run.launch != launch || !run.state().agentPhase()) {
                return; // a late timer: the attempt is over
            }
            boolean ending = run.abortCause != null;
            run.abort(Run.AbortCause.DEADLINE); // it sends nothing more
            AgentRun handle = run.agentRun;
            if (handle != null) {
                fx.add(() -> AgentCalls.abort(handle, fx));
            }
            String reason = Notices.timedOut(timeout);
            fx.add(() -> log.warn("run {} of session {} still running after its run timeout ({} ms); aborted{}", run.id,
                    key, timeout.toMillis(), ending ? "" : ", the user is told it failed"));
            List<SteerMessage> unanswered = new ArrayList<>();
            run.steered.forEach(steered -> unanswered.add(Steering.message(steered.item())));
            end(run, ending ? new RunOutcome.Aborted(unanswered) : new RunOutcome.Failed(reason, false, unanswered), fx);
        });
    }

    /**
     * Ends an attempt whose agent stopped, or whose deadline passed (lock held): permits back, then
     * settle, retry or the next turn.
     */
    private void end(Run run, RunOutcome outcome, Effects fx) {
        endLive(run, fx);
        run.deadlineTimer.cancel();
        run.deadlineTimer = Cancellable.NONE;
        long now = ctx.clock.millis();
        if (run.startedAtMillis != Run.NOT_STARTED) {
            ctx.admission.recordRun(now - run.startedAtMillis);
        }
        FallbackReason stepDown = Fallbacks.stepDown(run, outcome, retriesLeft(run));
        if (stepDown != null) {
            fallBack(run, outcome, stepDown, fx);
            return;
        }
        run.releasePermits(fx);
        if (run.abortCause == Run.AbortCause.SHUTDOWN && outcome instanceof RunOutcome.Aborted && !run.delivered) {
            ends.ended(run, RunEnd.LEFT_PENDING, fx);
            return;
        }
        if (shouldRetry(run, outcome)) {
            ends.requeue(steering.resolve(run, outcome, fx));
            scheduleRetry(run);
            return;
        }
        if (run.receiptsBeforeOutput != null) {
            fx.add(() -> ctx.receipts.beforeOutput(run)); // receipts go before a notice about the run
        }
        // an aborted run sends nothing more, not even a failure notice, unless its deadline aborted
        // it; the notice goes into the outbox before any message of the run (or its steers) is
        // settled, so the user is told first
        if (outcome instanceof RunOutcome.Failed failed
                && (!run.silenced() || run.abortCause == Run.AbortCause.DEADLINE)) {
            Route route = run.route;
            String notice = Notices.failure(failed.reason());
            fx.add(() -> ctx.outbox.send(route, notice));
        } else if (outcome instanceof RunOutcome.Completed && !run.delivered && run.abortCause == null) {
            emptyAnswer(run, fx);
        } else if (outcome instanceof RunOutcome.Completed && run.fellBack != null && run.abortCause == null
                && ctx.agents.fallbackNotice(run.ladder.get(0))) { // no notice for a run a shutdown or stop aborted
            Route route = run.route;
            String notice = Notices.fallbackAnswered(run.agent(), run.fellBack);
            fx.add(() -> ctx.outbox.send(route, notice));
        }
        ends.requeue(steering.resolve(run, outcome, fx));
        ends.ended(run, RunEnd.Settled.of(run.disposition), fx);
        fx.add(() -> RunLog.finished(run, key, now, outcome, run.agentName, ctx.observer)); // the run has ended: its fields no longer change
    }

    /**
     * The attempt's live answer (docs/behaviour.md §16): a reply left unfinished gets its mark, before
     * any notice about the run (lock held; the outbox is called in the effects).
     */
    private void endLive(Run run, Effects fx) {
        LiveAnswer live = run.live;
        if (live == null) {
            return;
        }
        run.live = null;
        boolean stopped = run.abortCause == Run.AbortCause.STOP || run.abortCause == Run.AbortCause.INTERRUPT;
        // a complete reply goes unless the run was silenced, the rule the run's gate applies to every
        // reply: a shutdown that aborts a run after its reply (not silenced) still delivers it, its
        // message answered once; a reply cut before it was complete is marked, its message pending
        boolean aborted = run.silenced();
        fx.add(() -> live.end(stopped ? LiveAnswer.STOPPED : LiveAnswer.INTERRUPTED, aborted));
    }

    /**
     * Where the run's live messages are recorded, so a restart after a crash marks them
     * (docs/behaviour.md §16.3): against the run's first message, which stays pending until the
     * run's answer went out.
     */
    private LiveTrace liveTrace(Run run) {
        List<Ticket> tickets = run.tickets();
        return tickets.isEmpty() ? null : new LiveTrace(ctx.journal, tickets.get(0).seq(), run.route);
    }

    private boolean shouldRetry(Run run, RunOutcome outcome) {
        return outcome instanceof RunOutcome.Failed failed && failed.retryable() && !run.delivered
                && run.abortCause == null && retriesLeft(run);
    }

    private boolean retriesLeft(Run run) {
        return run.attempt <= ctx.settings.failureRetries();
    }

    /**
     * The run's agent could not answer and nothing was delivered (see {@link Fallbacks}; lock held):
     * the run continues on the next agent of its ladder at once, keeping its lanes, with the same
     * prompt and the session's same stored history; that agent gets its own retries. Steers go back
     * to the queue as for a retry.
     */
    private void fallBack(Run run, RunOutcome outcome, FallbackReason reason, Effects fx) {
        String from = run.agent();
        String why = outcome instanceof RunOutcome.Failed failed ? failed.reason() : reason.id;
        run.rung++;
        String to = run.agent();
        if (run.fellBack == null) {
            run.fellBack = reason;
        }
        run.attempt = 1;
        run.agentRun = null;
        // the earlier agent's launch is over from now on (its deadline was cancelled by end): its late
        // events and a deadline task already running are stale at once, not only once the fallback's
        // launch takes the lock
        run.launch++;
        ends.requeue(steering.resolve(run, outcome, fx));
        if (run.state() != Run.State.STARTING) {
            run.moveTo(Run.State.STARTING);
        }
        String runId = run.id;
        fx.add(() -> {
            log.info("run {} of session {}: agent '{}' could not answer ({}: {}); continuing on '{}'", runId, key,
                    from, reason.id, why, to);
            ctx.observer.fallback(from, to, reason.id);
        });
        fx.add(() -> dispatch(() -> launch(run)));
    }

    private void scheduleRetry(Run run) {
        Duration backoff = ctx.settings.retryBackoff().multipliedBy(1L << Math.min(20, run.attempt - 1));
        run.attempt++;
        run.moveTo(Run.State.RETRY_WAIT);
        run.agentRun = null;
        run.retryTimer = ctx.scheduler.schedule(backoff, () -> retry(run));
    }

    private void retry(Run run) {
        boolean again = lock.lockedGet(fx -> {
            if (run.state() != Run.State.RETRY_WAIT) {
                return false; // aborted or ended while it waited
            }
            if (ctx.stopping) {
                ends.ended(run, RunEnd.LEFT_PENDING, fx);
                return false;
            }
            run.moveTo(Run.State.WAITING);
            run.holdsSessionSlot = true; // the session's slot again (the run is still its active run), then its lanes
            return true;
        });
        if (again) {
            requestLane(run);
        }
    }
}
