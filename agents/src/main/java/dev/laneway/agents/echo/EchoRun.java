package dev.laneway.agents.echo;

import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.agent.RunEvents;
import dev.laneway.core.agent.RunOutcome;
import dev.laneway.core.agent.SteerMessage;
import dev.laneway.core.agent.SteerResult;
import dev.laneway.core.time.Scheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;

/**
 * One echo run.
 *
 * <p>Concurrency: {@link #answer} runs once, on the scheduler's thread (or inline in
 * {@code start}); {@link #steer} and {@link #abort} come from the engine while it holds its
 * session lock. {@code lock} guards {@code state}, {@code aborted}, {@code batches} and
 * {@code timer}; it is never held while calling {@link RunEvents} or completing the future, so the
 * engine's lock and this one are never taken in the opposite order. States: WAITING (timer armed)
 * → ANSWERING (replies being sent; steers still accepted) → DONE (steers refused). An abort while
 * WAITING completes the run on a fresh virtual thread, so no engine callback runs inside
 * {@code abort()}; an abort while ANSWERING is finished by the answering thread at its next step.
 */
final class EchoRun implements AgentRun {

    private enum State { WAITING, ANSWERING, DONE }

    private final String prompt;
    private final RunEvents events;
    private final CompletableFuture<RunOutcome> completion = new CompletableFuture<>();
    private final ReentrantLock lock = new ReentrantLock();
    private State state = State.WAITING;                            // guarded by lock
    private boolean aborted;                                         // guarded by lock
    private final List<List<SteerMessage>> batches = new ArrayList<>(); // guarded by lock, arrival order
    private Scheduler.Cancellable timer = Scheduler.Cancellable.NONE;   // guarded by lock

    EchoRun(String prompt, RunEvents events) {
        this.prompt = prompt;
        this.events = events;
    }

    void armTimer(Scheduler.Cancellable cancellable) {
        lock.lock();
        try {
            if (state == State.WAITING && !aborted) {
                timer = cancellable;
                return;
            }
        } finally {
            lock.unlock();
        }
        cancellable.cancel();
    }

    /** Sends the main reply, then one reply per steer batch (answering that batch), then completes. */
    void answer() {
        lock.lock();
        try {
            if (state != State.WAITING || aborted) {
                return;
            }
            state = State.ANSWERING;
        } finally {
            lock.unlock();
        }
        events.reply("echo: " + prompt);
        while (true) {
            RunOutcome finished = null;
            List<SteerMessage> batch = null;
            lock.lock();
            try {
                if (aborted) {
                    finished = new RunOutcome.Aborted(drainAll());
                } else if (batches.isEmpty()) {
                    finished = RunOutcome.Completed.clean();
                } else {
                    batch = batches.removeFirst();
                }
                if (finished != null) {
                    state = State.DONE;
                }
            } finally {
                lock.unlock();
            }
            if (finished != null) {
                completion.complete(finished);
                return;
            }
            events.reply("echo: " + batch.stream().map(SteerMessage::text).collect(Collectors.joining("\n")), batch);
        }
    }

    @Override
    public CompletionStage<RunOutcome> completion() {
        return completion;
    }

    @Override
    public SteerResult steer(List<SteerMessage> messages) {
        List<SteerMessage> batch = List.copyOf(messages);
        lock.lock();
        try {
            if (state == State.DONE || aborted) {
                return SteerResult.REFUSED;
            }
            if (!batch.isEmpty()) {
                batches.add(batch);
            }
            return SteerResult.ACCEPTED;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void abort() {
        List<SteerMessage> unseen;
        Scheduler.Cancellable toCancel;
        lock.lock();
        try {
            if (aborted || state == State.DONE) {
                return;
            }
            aborted = true;
            if (state == State.ANSWERING) {
                return; // the answering thread completes the run at its next step
            }
            state = State.DONE;
            unseen = drainAll();
            toCancel = timer;
        } finally {
            lock.unlock();
        }
        toCancel.cancel();
        RunOutcome outcome = new RunOutcome.Aborted(unseen);
        Thread.startVirtualThread(() -> completion.complete(outcome));
    }

    /** Must hold lock. */
    private List<SteerMessage> drainAll() {
        List<SteerMessage> all = batches.stream().flatMap(List::stream).toList();
        batches.clear();
        return all;
    }
}
