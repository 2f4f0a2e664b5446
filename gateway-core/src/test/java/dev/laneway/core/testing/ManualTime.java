package dev.laneway.core.testing;

import dev.laneway.core.time.Scheduler;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A clock and scheduler in one, driven by the test: every module's tests use it for time.
 *
 * <ul>
 *   <li>{@link #ManualTime() Manual} (the default): time moves only when a test calls
 *       {@link #advance}, which runs the tasks that fall due, in due-time order (ties in scheduling
 *       order), on the test's thread, each at its due time.</li>
 *   <li>{@link #running() Running}: time also flows at the real clock's pace, and due tasks run on
 *       a timer thread of their own, so tests that drive real SDKs and servers need not step a
 *       100 ms debounce; {@link #advance} still skips ahead (a 30 s retry-after passes at once)
 *       and runs what fell due. {@link #close} it at the end.</li>
 * </ul>
 *
 * <p>{@link #pendingTasks} counts tasks scheduled and not yet finished (a running one counts until
 * it returns, so a task that schedules its successor never lets the count touch 0): once it is 0
 * and no input comes, nothing more can happen.
 *
 * <p>Concurrency: {@code lock} guards {@code now}, {@code skipped}, {@code order}, {@code tasks},
 * {@code running} and {@code closed}; any thread may schedule, read the time or advance. Tasks run
 * outside the lock; {@code changed} wakes the timer thread and {@link #awaitPending} waiters.
 */
public final class ManualTime implements InstantSource, Scheduler, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ManualTime.class);
    private static final Instant DEFAULT_START = Instant.parse("2026-01-01T00:00:00Z");
    private static final Duration AWAIT_LIMIT = Duration.ofSeconds(20);

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final boolean flowing;              // running mode: real time passes too
    private final long realStart = System.nanoTime();
    private Instant now;                        // manual mode: the time; running mode: the start
    private Duration skipped = Duration.ZERO;   // running mode: how far advance() skipped ahead
    private long order;
    private int running;                        // tasks taken from the queue that have not returned
    private boolean closed;
    // tasks not yet run, by due time then scheduling order
    private final PriorityQueue<Task> tasks = new PriorityQueue<>(
            Comparator.comparing(Task::due).thenComparingLong(Task::order));

    public ManualTime() {
        this(DEFAULT_START);
    }

    public ManualTime(Instant start) {
        this(start, false);
    }

    private ManualTime(Instant start, boolean flowing) {
        this.now = start;
        this.flowing = flowing;
    }

    /** Time that flows with the real clock and can be skipped ahead; due tasks run on a timer thread. */
    public static ManualTime running() {
        ManualTime time = new ManualTime(DEFAULT_START, true);
        Thread.ofPlatform().daemon().name("manual-time").start(time::runDueTasks);
        return time;
    }

    @Override
    public Instant instant() {
        lock.lock();
        try {
            return nowLocked();
        } finally {
            lock.unlock();
        }
    }

    private Instant nowLocked() {
        return flowing ? now.plus(skipped).plusNanos(System.nanoTime() - realStart) : now;
    }

    @Override
    public Cancellable schedule(Duration delay, Runnable task) {
        lock.lock();
        try {
            Duration wait = delay.isNegative() ? Duration.ZERO : delay;
            Task entry = new Task(nowLocked().plus(wait), order++, wait, task);
            tasks.add(entry);
            changed.signalAll();
            return () -> remove(entry);
        } finally {
            lock.unlock();
        }
    }

    private void remove(Task entry) {
        lock.lock();
        try {
            tasks.remove(entry);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Moves time forward, running every task that falls due on the way (at its due time, in manual mode). */
    public void advance(Duration by) {
        Instant target;
        lock.lock();
        try {
            if (flowing) {
                skipped = skipped.plus(by);
                changed.signalAll();
            }
            target = nowLocked().plus(flowing ? Duration.ZERO : by);
        } finally {
            lock.unlock();
        }
        while (true) {
            Task next;
            lock.lock();
            try {
                Instant limit = flowing ? nowLocked() : target;
                if (tasks.isEmpty() || tasks.peek().due().isAfter(limit)) {
                    if (!flowing) {
                        now = target;
                    }
                    return;
                }
                next = tasks.poll();
                if (!flowing) {
                    now = next.due();
                }
                running++;
            } finally {
                lock.unlock();
            }
            run(next);
        }
    }

    public void advanceMillis(long millis) {
        advance(Duration.ofMillis(millis));
    }

    /** Runs tasks due now (zero-delay tasks) without moving time. */
    public void runDue() {
        advance(Duration.ZERO);
    }

    /** Tasks scheduled that have not finished running and were not cancelled. */
    public int pendingTasks() {
        lock.lock();
        try {
            return tasks.size() + running;
        } finally {
            lock.unlock();
        }
    }

    /** Due times of the tasks not yet run, earliest first. */
    public List<Instant> pendingDueTimes() {
        return pending().stream().map(Task::due).toList();
    }

    /** The delays the tasks not yet run were scheduled with, in due order. */
    public List<Duration> pendingDelays() {
        return pending().stream().map(Task::delay).toList();
    }

    private List<Task> pending() {
        lock.lock();
        try {
            List<Task> list = new ArrayList<>(tasks);
            list.sort(tasks.comparator());
            return list;
        } finally {
            lock.unlock();
        }
    }

    /** Waits (real time, up to 20 s) until a task scheduled with exactly {@code delay} is pending; another thread schedules it. */
    public void awaitPending(Duration delay) {
        long nanos = AWAIT_LIMIT.toNanos();
        lock.lock();
        try {
            while (tasks.stream().noneMatch(task -> task.delay().equals(delay))) {
                if (nanos <= 0) {
                    throw new AssertionError("no task with delay " + delay + " was scheduled; pending: "
                            + tasks.stream().map(Task::delay).toList());
                }
                nanos = changed.awaitNanos(nanos);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for a task with delay " + delay, e);
        } finally {
            lock.unlock();
        }
    }

    /** Stops the timer thread of a running time; tasks not yet run are dropped. */
    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
            tasks.clear();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Running mode: the timer thread's loop. */
    private void runDueTasks() {
        while (true) {
            Task next;
            lock.lock();
            try {
                while (true) {
                    if (closed) {
                        return;
                    }
                    Task head = tasks.peek();
                    if (head == null) {
                        changed.await();
                        continue;
                    }
                    long wait = Duration.between(nowLocked(), head.due()).toNanos();
                    if (wait <= 0) {
                        next = tasks.poll();
                        running++;
                        break;
                    }
                    changed.awaitNanos(Math.min(wait, TimeUnit.MILLISECONDS.toNanos(50)));
                }
            } catch (InterruptedException e) {
                return;
            } finally {
                lock.unlock();
            }
            run(next);
        }
    }

    private void run(Task task) {
        try {
            task.action().run();
        } catch (RuntimeException | Error e) {
            if (!flowing) {
                throw e;
            }
            log.error("a scheduled task failed", e);
        } finally {
            lock.lock();
            try {
                running--;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    private record Task(Instant due, long order, Duration delay, Runnable action) {
    }
}
