package dev.laneway.channels.discord;

import dev.laneway.core.time.Scheduler;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A manual clock and scheduler that, unlike core's {@code ManualTime}, may be called from several
 * threads (JDA's event thread and the gateway's virtual threads schedule; the test advances).
 * Time moves only in {@link #advance}, which runs due tasks on the test thread, outside the lock.
 *
 * <p>Concurrency: {@code lock} guards {@code now}, {@code order} and {@code tasks}.
 */
final class SteppedTime implements InstantSource, Scheduler {

    private final ReentrantLock lock = new ReentrantLock();
    private Instant now = Instant.parse("2026-01-01T00:00:00Z");
    private long order;
    private final PriorityQueue<Task> tasks =
            new PriorityQueue<>(Comparator.comparing(Task::due).thenComparingLong(Task::order));

    @Override
    public Instant instant() {
        lock.lock();
        try {
            return now;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Cancellable schedule(Duration delay, Runnable task) {
        lock.lock();
        try {
            Task entry = new Task(now.plus(delay.isNegative() ? Duration.ZERO : delay), order++, task);
            tasks.add(entry);
            return () -> remove(entry);
        } finally {
            lock.unlock();
        }
    }

    private void remove(Task entry) {
        lock.lock();
        try {
            tasks.remove(entry);
        } finally {
            lock.unlock();
        }
    }

    /** Moves time forward, running each task that falls due on the way at its due time. */
    void advance(Duration by) {
        Instant target = instant().plus(by);
        while (true) {
            Task next;
            lock.lock();
            try {
                if (tasks.isEmpty() || tasks.peek().due().isAfter(target)) {
                    now = target;
                    return;
                }
                next = tasks.poll();
                now = next.due();
            } finally {
                lock.unlock();
            }
            next.task().run();
        }
    }

    /** Due times of the tasks still scheduled. */
    List<Instant> pending() {
        lock.lock();
        try {
            List<Instant> due = new ArrayList<>();
            tasks.forEach(task -> due.add(task.due()));
            return due;
        } finally {
            lock.unlock();
        }
    }

    private record Task(Instant due, long order, Runnable task) {
    }
}
