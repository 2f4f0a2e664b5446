package dev.laneway.bench;

import dev.laneway.core.agent.Agent;
import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.agent.RunEvents;
import dev.laneway.core.agent.RunOutcome;
import dev.laneway.core.agent.RunRequest;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * An agent that does no work. Normally every run has completed by the time {@link #start}
 * returns. Built {@link #BenchAgent(RunHooks, int, String) with a reply}, each run first answers
 * with that short text, as a real run answers (the idle-run benchmarks); without one it answers
 * nothing, so the gateway sends its empty-answer notice instead. While {@link #hold() holding}, runs stay open until {@link #releaseAll()}: that is how
 * benchmarks keep sessions active so that newcomers take the queueing path.
 *
 * <p>Held runs go into an array sized up front, so that measuring the heap of held sessions does
 * not also measure a growing list here. Concurrency: {@code holding} is volatile; a run that
 * registers itself after a release has drained the array sees {@code holding == false} and
 * completes itself, so no run is ever left open.
 */
final class BenchAgent implements Agent {

    private static final RunOutcome DONE = RunOutcome.Completed.clean();
    private static final AgentRun FINISHED = new BenchRun(CompletableFuture.completedFuture(DONE));

    /** The short answer of each run of the idle-run benchmarks (the bare baseline sends the same). */
    static final String REPLY = "ok";

    private final RunHooks hooks;
    private final String reply; // null: no answer
    private final AtomicReferenceArray<CompletableFuture<RunOutcome>> held;
    private final AtomicInteger heldCount = new AtomicInteger();
    private final ConcurrentLinkedQueue<CompletableFuture<RunOutcome>> overflow = new ConcurrentLinkedQueue<>();
    private final AtomicInteger starts = new AtomicInteger();
    // runs still to complete at once before holding resumes (see releaseAndPass)
    private final AtomicInteger passes = new AtomicInteger();
    private volatile boolean holding;

    /** @param capacity how many runs may be held without spilling into a slower list */
    BenchAgent(RunHooks hooks, int capacity) {
        this(hooks, capacity, null);
    }

    /**
     * @param capacity how many runs may be held without spilling into a slower list
     * @param reply    what every run answers before it completes, or null for nothing
     */
    BenchAgent(RunHooks hooks, int capacity, String reply) {
        this.hooks = hooks;
        this.reply = reply;
        this.held = new AtomicReferenceArray<>(capacity);
    }

    @Override
    public String name() {
        return "noop";
    }

    @Override
    public AgentRun start(RunRequest request, RunEvents events) {
        if (hooks != RunHooks.NONE) {
            hooks.started(BenchSessions.index(request.senderId()));
        }
        if (reply != null) {
            events.reply(reply);
        }
        if (!holding || passes.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0) {
            return FINISHED;
        }
        CompletableFuture<RunOutcome> completion = new CompletableFuture<>();
        int slot = heldCount.getAndIncrement();
        if (slot < held.length()) {
            held.set(slot, completion);
        } else {
            overflow.add(completion);
        }
        starts.incrementAndGet(); // counted once a release can find it
        if (!holding) {
            completion.complete(DONE);
        }
        return new BenchRun(completion);
    }

    /** From now on runs stay open until {@link #releaseAll()}. */
    void hold() {
        starts.set(0);
        holding = true;
    }

    /** Runs started and held since {@link #hold()}; each is registered, so a release completes it. */
    int heldStarts() {
        return starts.get();
    }

    /**
     * Completes every held run, lets the next {@code count} runs complete at once and holds the ones
     * after them: a session's drain of exactly {@code count} more runs, ending with one held again.
     * For one session at a time (a run that registers itself concurrently may miss the release).
     */
    void releaseAndPass(int count) {
        passes.set(count);
        completeHeld();
    }

    /** Completes every held run and stops holding. */
    void releaseAll() {
        holding = false;
        completeHeld();
    }

    private void completeHeld() {
        int n = Math.min(heldCount.getAndSet(0), held.length());
        for (int i = 0; i < n; i++) {
            CompletableFuture<RunOutcome> completion = held.getAndSet(i, null);
            if (completion != null) {
                completion.complete(DONE);
            }
        }
        CompletableFuture<RunOutcome> next;
        while ((next = overflow.poll()) != null) {
            next.complete(DONE);
        }
    }

    /** Lets go of held runs without completing them (the gateway holding them is being dropped). */
    void forgetAll() {
        holding = false;
        int n = Math.min(heldCount.getAndSet(0), held.length());
        for (int i = 0; i < n; i++) {
            held.set(i, null);
        }
        overflow.clear();
    }
}
