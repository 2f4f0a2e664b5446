package dev.laneway.bench;

import dev.laneway.core.agent.Agent;
import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.agent.RunEvents;
import dev.laneway.core.agent.RunOutcome;
import dev.laneway.core.agent.RunRequest;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * A fake model of fixed latency for the fleet measurements (docs/architecture.md §10): each run
 * answers {@link BenchAgent#REPLY} and completes {@code latency} after it started (at once for
 * zero). While {@link #hold() holding}, runs stay open until {@link #releaseAll()}, so a measurement
 * can count what a run's start costs apart from what its end costs.
 *
 * <p>Concurrency: one daemon timer thread completes delayed runs; {@code held} is a concurrent
 * queue; {@code holding} is volatile, and a run that registers after a release completes itself.
 */
final class LatencyAgent implements Agent, AutoCloseable {

    private static final RunOutcome DONE = RunOutcome.Completed.clean();

    private final long latencyNanos;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "latency-agent-timer");
        thread.setDaemon(true);
        return thread;
    });
    private final ConcurrentLinkedQueue<Runnable> held = new ConcurrentLinkedQueue<>();
    private final LongAdder starts = new LongAdder();
    private volatile boolean holding;

    LatencyAgent(Duration latency) {
        this.latencyNanos = latency.toNanos();
    }

    @Override
    public String name() {
        return "latency";
    }

    @Override
    public AgentRun start(RunRequest request, RunEvents events) {
        starts.increment();
        CompletableFuture<RunOutcome> completion = new CompletableFuture<>();
        Runnable finish = () -> {
            events.reply(BenchAgent.REPLY);
            completion.complete(DONE);
        };
        if (holding) {
            held.add(finish);
            if (!holding) {
                releaseHeld();
            }
        } else if (latencyNanos == 0) {
            finish.run();
        } else {
            timer.schedule(finish, latencyNanos, TimeUnit.NANOSECONDS);
        }
        return new BenchRun(completion);
    }

    /** Runs started so far. */
    long starts() {
        return starts.sum();
    }

    /** From now on runs stay open until {@link #releaseAll()}. */
    void hold() {
        holding = true;
    }

    /** Answers every held run now and stops holding. */
    void releaseAll() {
        holding = false;
        releaseHeld();
    }

    private void releaseHeld() {
        for (Runnable next = held.poll(); next != null; next = held.poll()) {
            next.run();
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
