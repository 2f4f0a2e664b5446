package dev.laneway.core.engine;

import dev.laneway.core.time.Scheduler;
import dev.laneway.core.time.Scheduler.Cancellable;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The deadlines of every running attempt (see {@link RunDriver}), behind one scheduler timer instead
 * of one timer per run: a run that starts and ends puts its entry in a list and takes it out again,
 * which costs two pointer updates, where a timer of its own cost a scheduled task in the scheduler's
 * queue and its removal. The list is kept in due order; runs share a few run timeouts, so a new
 * entry almost always goes at the tail. The one timer is due when the head is: when it fires, every
 * entry then due is taken out and its task runs (on the scheduler's thread, as a timer's would),
 * and the timer is set again for the new head. An entry taken out before its due time leaves the
 * timer as it is (it fires, finds nothing due and is set for the next head), unless the list is
 * then empty: the timer is cancelled, so no timer outlives the last run. When the timer fires, its
 * due time has come, whatever the clock says: the scheduler decides, as it did for a timer per run.
 *
 * <p>Concurrency: {@code lock} guards the list, {@code timer} and {@code timerDue}. The tasks run
 * with it released; a task takes its session's lock. Entries are added and cancelled under a
 * session lock (this lock nests inside it, never the other way round).
 */
final class RunDeadlines {

    private static final Logger log = LoggerFactory.getLogger(RunDeadlines.class);

    private final InstantSource clock;
    private final Scheduler scheduler;
    private final ReentrantLock lock = new BriefLock(); // two short sections per run, from every carrier
    private Entry head;                              // guarded by lock; the earliest due
    private Entry tail;                              // guarded by lock
    private Cancellable timer = Cancellable.NONE;    // guarded by lock
    private long timerDue;                           // guarded by lock; epoch millis, while a timer is set
    private long armed;                              // guarded by lock; which arming the current timer is

    RunDeadlines(InstantSource clock, Scheduler scheduler) {
        this.clock = clock;
        this.scheduler = scheduler;
    }

    /** Runs {@code task} once {@code timeout} has passed, unless the returned handle is cancelled first. */
    Cancellable add(Duration timeout, Runnable task) {
        long millis = millisOf(timeout);
        long now = clock.millis();
        long due = millis > Long.MAX_VALUE - now ? Long.MAX_VALUE : now + millis;
        Entry entry = new Entry(due, task);
        lock.lock();
        try {
            insert(entry);
            if (head == entry && (timer == Cancellable.NONE || due < timerDue)) {
                timer.cancel();
                arm(due, timeout); // the delay the caller asked for, exactly
            }
        } finally {
            lock.unlock();
        }
        return entry;
    }

    private static long millisOf(Duration timeout) {
        if (timeout.isNegative()) {
            return 0;
        }
        try {
            return timeout.toMillis();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    /** Entries due now leave the list and their tasks run; the timer is set for what is left. */
    private void fire(long arming) {
        List<Runnable> due = new ArrayList<>(1);
        lock.lock();
        try {
            long firedFor = timerDue;
            if (arming == armed) { // else a later arming replaced this timer, which fired all the same
                timer = Cancellable.NONE;
            } else {
                firedFor = Long.MIN_VALUE; // this timer's own due time is no longer known
            }
            // the timer fired: its due time has come on the scheduler's time, whatever the clock
            // says (a test may give the gateway a fixed clock, as a per-run timer never asked it)
            long now = Math.max(clock.millis(), firedFor);
            while (head != null && head.due <= now) {
                Entry entry = head;
                unlink(entry);
                due.add(entry.task);
            }
            if (head != null && (timer == Cancellable.NONE || head.due < timerDue)) {
                timer.cancel();
                arm(head.due, Duration.ofMillis(head.due - now));
            } else if (head == null) {
                timer.cancel();
                timer = Cancellable.NONE;
            }
        } finally {
            lock.unlock();
        }
        for (Runnable task : due) {
            try {
                task.run();
            } catch (RuntimeException e) {
                log.error("run deadline task failed", e);
            }
        }
    }

    private void arm(long due, Duration delay) {
        timerDue = due;
        long arming = ++armed;
        timer = scheduler.schedule(delay, () -> fire(arming));
    }

    /** Into the list in due order, after entries due at the same time (lock held). */
    private void insert(Entry entry) {
        Entry before = tail;
        while (before != null && before.due > entry.due) {
            before = before.prev;
        }
        entry.prev = before;
        entry.next = before == null ? head : before.next;
        if (entry.next != null) {
            entry.next.prev = entry;
        } else {
            tail = entry;
        }
        if (before != null) {
            before.next = entry;
        } else {
            head = entry;
        }
        entry.listed = true;
    }

    private void unlink(Entry entry) {
        if (entry.prev != null) {
            entry.prev.next = entry.next;
        } else {
            head = entry.next;
        }
        if (entry.next != null) {
            entry.next.prev = entry.prev;
        } else {
            tail = entry.prev;
        }
        entry.prev = null;
        entry.next = null;
        entry.listed = false;
    }

    /** How many deadlines are waiting (for tests). */
    int size() {
        lock.lock();
        try {
            int n = 0;
            for (Entry e = head; e != null; e = e.next) {
                n++;
            }
            return n;
        } finally {
            lock.unlock();
        }
    }

    /** One deadline; cancelling it takes it out of the list (idempotent). */
    private final class Entry implements Cancellable {
        final long due;
        final Runnable task;
        Entry prev;       // guarded by lock
        Entry next;       // guarded by lock
        boolean listed;   // guarded by lock

        Entry(long due, Runnable task) {
            this.due = due;
            this.task = task;
        }

        @Override
        public void cancel() {
            lock.lock();
            try {
                if (!listed) {
                    return;
                }
                unlink(this);
                if (head == null) {
                    timer.cancel();
                    timer = Cancellable.NONE;
                }
            } finally {
                lock.unlock();
            }
        }
    }
}
