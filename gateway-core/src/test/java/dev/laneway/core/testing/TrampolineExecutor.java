package dev.laneway.core.testing;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/**
 * Runs tasks on the calling thread, but never inside another task: a task submitted while one is
 * running waits until it returns. Deterministic, no threads, no deep recursion. Single-threaded
 * tests only.
 */
public final class TrampolineExecutor implements Executor {

    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
    private boolean running;

    @Override
    public void execute(Runnable task) {
        queue.addLast(task);
        if (running) {
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
