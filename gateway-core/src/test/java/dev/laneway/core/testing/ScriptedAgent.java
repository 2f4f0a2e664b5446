package dev.laneway.core.testing;

import dev.laneway.core.agent.Agent;
import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.agent.RunEvents;
import dev.laneway.core.agent.RunOutcome;
import dev.laneway.core.agent.RunRequest;
import dev.laneway.core.agent.SteerMessage;
import dev.laneway.core.agent.SteerResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An agent whose runs stay open until the test ends them, so a test can hold a run "in flight"
 * and send more messages. Each {@link #start} records a {@link ScriptedRun}.
 */
public final class ScriptedAgent implements Agent {

    private final String name;
    private final List<ScriptedRun> runs = new CopyOnWriteArrayList<>();
    private volatile boolean steerable = true;
    private volatile boolean completesOnAbort = true;
    private volatile Throwable startFailure;
    private volatile Throwable steerFailure;
    private volatile Throwable abortFailure;
    private volatile int failedStarts;
    private final List<String> resets = new CopyOnWriteArrayList<>();

    private volatile Throwable nameFailure;
    private volatile java.time.Duration runTimeout = java.time.Duration.ofMinutes(5);

    /** An agent named {@code scripted}. */
    public ScriptedAgent() {
        this("scripted");
    }

    /** An agent of that name (several agents of a gateway, docs/behaviour.md §13). */
    public ScriptedAgent(String name) {
        this.name = name;
    }

    @Override
    public String name() {
        Throwable failure = nameFailure;
        if (failure != null) {
            nameFailure = null;
            throwUnchecked(failure);
        }
        return name;
    }

    @Override
    public java.time.Duration runTimeout() {
        return runTimeout;
    }

    /** The run timeout the gateway gives runs started from now on (default 5 minutes, as configured agents). */
    public ScriptedAgent runTimeout(java.time.Duration value) {
        runTimeout = value;
        return this;
    }

    /** Makes the next {@link #name} throw this. */
    public ScriptedAgent throwOnNextName(Throwable failure) {
        nameFailure = failure;
        return this;
    }

    /** Whether new runs accept steers. */
    public ScriptedAgent steerable(boolean value) {
        steerable = value;
        return this;
    }

    /** Whether an abort completes the run at once; false simulates a run that ignores abort. */
    public ScriptedAgent completesOnAbort(boolean value) {
        completesOnAbort = value;
        return this;
    }

    /** Makes the next {@link #start} throw this (an agent bug: NoClassDefFoundError, StackOverflowError, ...). */
    public ScriptedAgent throwOnNextStart(Throwable failure) {
        startFailure = failure;
        return this;
    }

    /** Makes {@code steer} of runs started from now on throw this. */
    public ScriptedAgent steerThrows(Throwable failure) {
        steerFailure = failure;
        return this;
    }

    /** Makes {@code abort} of runs started from now on throw this (after recording the request). */
    public ScriptedAgent abortThrows(Throwable failure) {
        abortFailure = failure;
        return this;
    }

    /** Start attempts that threw (they record no run). */
    public int failedStarts() {
        return failedStarts;
    }

    @Override
    public AgentRun start(RunRequest request, RunEvents events) {
        Throwable failure = startFailure;
        if (failure != null) {
            startFailure = null;
            failedStarts++;
            throwUnchecked(failure);
        }
        ScriptedRun run = new ScriptedRun(request, events, steerable, completesOnAbort, steerFailure,
                abortFailure);
        runs.add(run);
        return run;
    }

    private static void throwUnchecked(Throwable failure) {
        if (failure instanceof RuntimeException e) {
            throw e;
        }
        if (failure instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException(failure);
    }

    @Override
    public void resetConversation(dev.laneway.core.SessionKey session) {
        resets.add(session.value());
    }

    public List<ScriptedRun> runs() {
        return List.copyOf(runs);
    }

    public ScriptedRun run(int index) {
        return runs.get(index);
    }

    public ScriptedRun lastRun() {
        return runs.get(runs.size() - 1);
    }

    /** Prompts of every run started, in order. */
    public List<String> prompts() {
        List<String> prompts = new ArrayList<>();
        runs.forEach(run -> prompts.add(run.request().prompt()));
        return prompts;
    }

    public List<String> resets() {
        return List.copyOf(resets);
    }

    /** Runs not completed yet. */
    public List<ScriptedRun> openRuns() {
        return runs.stream().filter(run -> !run.isDone()).toList();
    }

    /** One run; the test answers, fails or completes it. */
    public static final class ScriptedRun implements AgentRun {
        private final RunRequest request;
        private final RunEvents events;
        private final boolean steerable;
        private final boolean completesOnAbort;
        private final Throwable steerFailure;
        private final Throwable abortFailure;
        private final CompletableFuture<RunOutcome> completion = new CompletableFuture<>();
        private final List<SteerMessage> steers = new ArrayList<>();
        private final List<SteerMessage> unseen = new ArrayList<>();
        private final List<SteerMessage> unanswered = new ArrayList<>();
        private boolean abortRequested;

        ScriptedRun(RunRequest request, RunEvents events, boolean steerable, boolean completesOnAbort,
                    Throwable steerFailure, Throwable abortFailure) {
            this.request = request;
            this.events = events;
            this.steerable = steerable;
            this.completesOnAbort = completesOnAbort;
            this.steerFailure = steerFailure;
            this.abortFailure = abortFailure;
        }

        public RunRequest request() {
            return request;
        }

        public String prompt() {
            return request.prompt();
        }

        @Override
        public CompletionStage<RunOutcome> completion() {
            return completion;
        }

        @Override
        public SteerResult steer(List<SteerMessage> messages) {
            if (steerFailure != null) {
                throwUnchecked(steerFailure);
            }
            if (!steerable || completion.isDone()) {
                return SteerResult.REFUSED;
            }
            steers.addAll(messages);
            unseen.addAll(messages);
            unanswered.addAll(messages);
            return SteerResult.ACCEPTED;
        }

        @Override
        public void abort() {
            abortRequested = true;
            if (abortFailure != null) {
                throwUnchecked(abortFailure);
            }
            if (completesOnAbort) {
                completion.complete(new RunOutcome.Aborted(unseen));
            }
        }

        /** The model "sees" every steer so far (they will not be reported unseen). */
        public ScriptedRun seeSteers() {
            unseen.clear();
            return this;
        }

        public ScriptedRun reply(String text) {
            events.reply(text);
            return this;
        }

        /** Streams {@code text} as a delta of the reply being written. */
        public ScriptedRun delta(String text) {
            events.delta(text);
            return this;
        }

        /** Reports a tool step ({@code started}, {@code done}, ...). */
        public ScriptedRun toolStep(String tool, String status) {
            events.toolStep(tool, status);
            return this;
        }

        /** Reports that the model call is being tried again. */
        public ScriptedRun retrying(String reason) {
            events.retrying(reason);
            return this;
        }

        /**
         * The model saw every steer so far and answers them with {@code text}, and the run goes on
         * (as an agent does when steers came in while it wrote its answer): the reply reports them answered.
         */
        public ScriptedRun replyAnsweringSteers(String text) {
            List<SteerMessage> answered = List.copyOf(unanswered);
            unanswered.clear();
            unseen.clear();
            events.reply(text, answered);
            return this;
        }

        /** Replies and completes; steers not yet seen are reported unseen. */
        public void complete(String text) {
            reply(text);
            completion.complete(new RunOutcome.Completed(unseen));
        }

        public void complete() {
            completion.complete(new RunOutcome.Completed(unseen));
        }

        public void fail(String reason, boolean retryable) {
            completion.complete(new RunOutcome.Failed(reason, retryable, unseen));
        }

        /** Fails saying its provider could not serve the turn (circuit open, repeated 5xx): a fallback may. */
        public void failUnavailable(String reason) {
            completion.complete(RunOutcome.Failed.unavailable(reason, unseen));
        }

        /** Ends a run that ignored its abort until now. */
        public void finishAborted() {
            completion.complete(new RunOutcome.Aborted(unseen));
        }

        public List<SteerMessage> steers() {
            return List.copyOf(steers);
        }

        public List<String> steerTexts() {
            return steers.stream().map(SteerMessage::text).toList();
        }

        public boolean abortRequested() {
            return abortRequested;
        }

        public boolean isDone() {
            return completion.isDone();
        }
    }
}
