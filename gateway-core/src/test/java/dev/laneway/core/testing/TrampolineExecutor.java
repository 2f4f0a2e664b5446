package dev.laneway.core.testing;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/**
 * Runs tasks on the calling thread, but never inside another task: a task submitted while one is
 * running waits until it returns. Deterministic, no threads, no deep recursion. Single-threaded
 * tests only. {@link #pause} holds every task back until {@link #resume}, to look at the engine
 * between two steps (e.g. a reply queued but not yet sent).
 */
public final class TrampolineExecutor implements Executor {

    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
    private boolean running;
    private boolean paused;

    /** Queues tasks from now on instead of running them. */
    public void pause() {
        paused = true;
    }

    /** Runs everything held back, then runs tasks as they come again. */
    public void resume() {
        paused = false;
        execute(() -> { });
    }

    /** Tasks waiting (while paused). */
    public int waiting() {
        return queue.size();
    }

    @Override
    public void execute(Runnable task) {
        queue.addLast(task);
        if (running || paused) {
            return;
        }
        running = true;
        try {
            Runnable next;
            while ((next = queue.pollFirst()) != null) {
                next.run();
            }
        } finally {
            running = false;
        }
    }
}
