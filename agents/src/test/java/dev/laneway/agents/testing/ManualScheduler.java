package dev.laneway.agents.testing;

import dev.laneway.core.time.Scheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A scheduler driven by the test: tasks run only inside {@link #advance}, on the test's thread.
 * Thread-safe: runs may schedule from their own threads. {@code lock} guards {@code now},
 * {@code seq} and {@code queue}; tasks run outside the lock.
 */
public final class ManualScheduler implements Scheduler {

    private record Task(Duration due, long seq, Duration delay, Runnable action) {
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition scheduled = lock.newCondition();
    private Duration now = Duration.ZERO;
    private long seq;
    private final PriorityQueue<Task> queue = new PriorityQueue<>(
            Comparator.comparing(Task::due).thenComparingLong(Task::seq));

    @Override
    public Cancellable schedule(Duration delay, Runnable action) {
        lock.lock();
        try {
            Task task = new Task(now.plus(delay), seq++, delay, action);
            queue.add(task);
            scheduled.signalAll();
            return () -> remove(task);
        } finally {
            lock.unlock();
        }
    }

    private void remove(Task task) {
        lock.lock();
        try {
            queue.remove(task);
        } finally {
            lock.unlock();
        }
    }

    /** Moves time forward, running every task that falls due, in due order. */
    public void advance(Duration step) {
        Duration target;
        lock.lock();
        try {
            target = now.plus(step);
        } finally {
            lock.unlock();
        }
        while (true) {
            Task next;
            lock.lock();
            try {
                next = queue.peek();
                if (next == null || next.due().compareTo(target) > 0) {
                    now = target;
                    return;
                }
                queue.poll();
                now = next.due();
            } finally {
                lock.unlock();
            }
            next.action().run();
        }
    }

    /** The delays of the tasks not yet run, in due order. */
    public List<Duration> pendingDelays() {
        lock.lock();
        try {
            List<Task> tasks = new ArrayList<>(queue);
            tasks.sort(queue.comparator());
            return tasks.stream().map(Task::delay).toList();
        } finally {
            lock.unlock();
        }
    }

    /** Waits (up to 10 s) until a task with exactly this delay is pending. */
    public void awaitPending(Duration delay) {
        long nanos = TimeUnit.SECONDS.toNanos(10);
        lock.lock();
        try {
            while (queue.stream().noneMatch(t -> t.delay().equals(delay))) {
                if (nanos <= 0) {
                    throw new AssertionError("no task with delay " + delay + " was scheduled; pending: "
                            + queue.stream().map(Task::delay).toList());
                }
                nanos = scheduled.awaitNanos(nanos);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        } finally {
            lock.unlock();
        }
    }
}
