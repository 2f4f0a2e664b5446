package dev.laneway.core.testing;

import dev.laneway.core.time.Scheduler;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A manual clock and scheduler in one: time moves only when a test calls {@link #advance}, which
 * runs due tasks in due-time order (ties in scheduling order). Single-threaded tests only.
 */
public final class ManualTime implements InstantSource, Scheduler {

    private Instant now;
    private long order;
    private final PriorityQueue<Task> tasks = new PriorityQueue<>(
            Comparator.comparing(Task::due).thenComparingLong(Task::order));

    public ManualTime() {
        this(Instant.parse("2026-01-01T00:00:00Z"));
    }

    public ManualTime(Instant start) {
        this.now = start;
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public Cancellable schedule(Duration delay, Runnable task) {
        Task entry = new Task(now.plus(delay.isNegative() ? Duration.ZERO : delay), order++, task);
        tasks.add(entry);
        return () -> tasks.remove(entry);
    }

    /** Moves time forward, running every task that falls due on the way, at its due time. */
    public void advance(Duration by) {
        Instant target = now.plus(by);
        while (!tasks.isEmpty() && !tasks.peek().due().isAfter(target)) {
            Task next = tasks.poll();
            now = next.due();
            next.task().run();
        }
        now = target;
    }

    public void advanceMillis(long millis) {
        advance(Duration.ofMillis(millis));
    }

    /** Runs tasks due now (zero-delay tasks) without moving time. */
    public void runDue() {
        advance(Duration.ZERO);
    }

    public int pendingTasks() {
        return tasks.size();
    }

    /** Due times of pending tasks, for assertions. */
    public List<Instant> pendingDueTimes() {
        List<Instant> due = new ArrayList<>();
        tasks.forEach(task -> due.add(task.due()));
        due.sort(Comparator.naturalOrder());
        return due;
    }

    private record Task(Instant due, long order, Runnable task) {
    }
}
