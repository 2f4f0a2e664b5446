package dev.laneway.core.engine;

import dev.laneway.core.lane.BriefLock;
import dev.laneway.core.time.Scheduler;
import dev.laneway.core.time.Scheduler.Cancellable;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The deadlines of every running attempt (see {@link RunDriver}), behind one scheduler timer instead
 * of one timer per run: a run that starts and ends adds an entry and marks it cancelled, where a
 * timer of its own cost a scheduled task in the scheduler's queue and its removal. The entries are
 * kept in a list in due order; runs share a few run timeouts, so a new entry almost always goes at
 * the tail. The one timer is due when the head is: when it fires, every entry then due leaves the
 * list and, unless it was cancelled, its task runs (on the scheduler's thread, as a timer's would),
 * and the timer is set again for the new head. When the timer fires, its due time has come,
 * whatever the clock says: the scheduler decides, as it did for a timer per run.
 *
 * <p>Adding takes no lock in the common case (docs/decisions.md D215): the entry is pushed on an
 * incoming stack (one compare-and-set), and the list takes it in later, when the timer fires or a
 * thread holding the lock drains the stack. Only an entry due before the timer (or with no timer
 * set: the first deadline after none) takes the lock at once, to drain the stack and set the timer
 * for it. The list's lock was the one every run took, from every carrier (the most sampled engine
 * site at 10,000 idle sessions). Cancelling takes no lock either: it marks the entry (a run's end
 * does it, under its session's lock, on whatever carrier). A cancelled entry is dropped when the
 * stack is drained, or leaves the list when it reaches the head, or, once most linked entries are
 * cancelled (behind a long run), in one sweep; an add whose stack has grown past twice the live
 * deadlines drains it if the lock is free, so neither holds more than about twice the live
 * deadlines. The live count, the stack's top and its approximate size share one padded cache line and
 * nothing else (D241): an add writes that one shared line, and only reads the list's (its timer's due time). A
 * cancelled head leaves the timer as it is (it fires, finds nothing due and is set for the next
 * live head), unless no deadline is left: the last cancel takes the lock, empties the list and
 * cancels the timer, so no timer outlives the last run.
 *
 * <p>Concurrency: {@code lock} guards the list, {@code linked}, {@code timer} and {@code armed};
 * {@code timerDue} is written under it and read without it (volatile). The incoming stack
 * ({@code hot.top}) is lock-free: any thread pushes, a thread holding the lock takes it whole;
 * {@code hot.stacked}, its approximate size, is a plain field any pusher writes (a heuristic, see
 * {@link #push}). An entry's state (live, cancelled, fired) changes once, by compare-and-set;
 * {@code hot.live} counts the live entries, incremented by an add before its push and decremented
 * by whoever ends an entry, so the one that brings it to zero knows it (and then looks again under
 * the lock: an add may have come meanwhile).
 * No deadline is lost between a push and the timer: an adder pushes, then reads {@code timerDue};
 * whoever holds the lock sets {@code timerDue}, then looks at the stack again, and drains it if it
 * is not empty; so either the adder sees the timer as it is now (and takes the lock if its entry is
 * due first) or the lock holder sees the entry. The tasks run with the lock released; a task takes
 * its session's lock. Entries are added with no session lock held, and no session lock is ever
 * taken under this one.
 */
final class RunDeadlines {

    private static final Logger log = LoggerFactory.getLogger(RunDeadlines.class);
    // a sweep runs once the cancelled entries still linked outnumber the live ones by this much, and
    // half the list; an add drains the stack once it holds this many more than twice the live entries
    private static final int SWEEP_SLACK = 32;
    private static final long NO_TIMER = Long.MAX_VALUE;

    private final InstantSource clock;
    private final Scheduler scheduler;
    private final ReentrantLock lock = new BriefLock(); // taken by the first add, a drain, the timer, the last cancel
    private final Hot hot = new Hot();               // the live count and the incoming stack, on a line of their own
    private Entry head;                              // guarded by lock; the earliest due
    private Entry tail;                              // guarded by lock
    private int linked;                              // guarded by lock; entries in the list, cancelled ones too
    private Cancellable timer = Cancellable.NONE;    // guarded by lock
    private volatile long timerDue = NO_TIMER;       // written under lock; epoch millis of the timer, NO_TIMER if none
    private long armed;                              // guarded by lock; which arming the current timer is

    RunDeadlines(InstantSource clock, Scheduler scheduler) {
        this.clock = clock;
        this.scheduler = scheduler;
    }

    /** Runs {@code task} once {@code timeout} has passed, unless the returned handle is cancelled first. */
    Cancellable add(Duration timeout, Runnable task) {
        long millis = millisOf(timeout);
        long now = clock.millis();
        long due = millis > Long.MAX_VALUE - now ? Long.MAX_VALUE - 1 : now + millis;
        Entry entry = new Entry(due, task);
        Hot h = hot;
        int liveNow = (int) LIVE_COUNT.getAndAdd(h, 1) + 1;
        int stacked = push(h, entry);
        if (due < timerDue) { // no timer, or one set for later than this entry: set it now
            lock.lock();
            try {
                settleLocked(now, timeout, entry);
            } finally {
                lock.unlock();
            }
        } else if (stacked > 2L * liveNow + SWEEP_SLACK && lock.tryLock()) { // the stack is mostly cancelled
            try {
                settleLocked(now, null, null);
            } finally {
                lock.unlock();
            }
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

    /**
     * Pushes {@code entry} on the incoming stack and returns about how many entries the stack holds:
     * a plain count kept beside the top, on the line the push has just taken, started again by the
     * first push on an empty stack. Two pushes at once may count one entry too few (or the count may
     * run on past a drain until the next first push): it only decides when an add drains the stack.
     */
    private static int push(Hot h, Entry entry) {
        Entry top;
        do {
            top = h.top;
            entry.pushedOn = top;
        } while (!TOP.compareAndSet(h, top, entry));
        int stacked = top == null ? 1 : h.stacked + 1;
        h.stacked = stacked;
        return stacked;
    }

    /**
     * Takes what was pushed into the list, drops cancelled entries, and sets the timer for the head
     * (or cancels it when nothing is left), until the stack is empty after the timer is set (lock
     * held; see the class comment). The timer's delay runs from {@code now}; {@code exact}, when
     * {@code entry} becomes the head, is the delay its adder asked for, used as it is.
     */
    private void settleLocked(long now, Duration exact, Entry entry) {
        do {
            drainIncoming();
            dropCancelledHeads();
            if (linked - hot.live > linked / 2 + SWEEP_SLACK) {
                sweep();
            }
            if (head == null) {
                timer.cancel();
                timer = Cancellable.NONE;
                timerDue = NO_TIMER;
            } else if (timer == Cancellable.NONE || head.due < timerDue) {
                timer.cancel();
                arm(head.due, head == entry ? exact : Duration.ofMillis(Math.max(0, head.due - now)));
            }
        } while (hot.top != null);
    }

    /** Moves the pushed entries into the list, oldest push first, dropping those already ended (lock held). */
    private void drainIncoming() {
        Entry newest = (Entry) TOP.getAndSet(hot, (Entry) null);
        Entry oldest = null;
        for (Entry e = newest; e != null; ) { // reverse the stack, so entries due together keep their order
            Entry next = e.pushedOn;
            e.pushedOn = oldest;
            oldest = e;
            e = next;
        }
        for (Entry e = oldest; e != null; ) {
            Entry next = e.pushedOn;
            e.pushedOn = null;
            if (e.state == Entry.LIVE) {
                insert(e);
            }
            e = next;
        }
    }

    /** Entries due now leave the list and the live ones' tasks run; the timer is set for what is left. */
    private void fire(long arming) {
        List<Runnable> due = new ArrayList<>(1);
        lock.lock();
        try {
            long firedFor = timerDue;
            if (arming == armed) { // else a later arming replaced this timer, which fired all the same
                timer = Cancellable.NONE;
                timerDue = NO_TIMER;
            } else {
                firedFor = Long.MIN_VALUE; // this timer's own due time is no longer known
            }
            drainIncoming();
            // the timer fired: its due time has come on the scheduler's time, whatever the clock
            // says (a test may give the gateway a fixed clock, as a per-run timer never asked it)
            long now = Math.max(clock.millis(), firedFor);
            while (head != null && head.due <= now) {
                Entry entry = head;
                unlink(entry);
                if (entry.end(Entry.FIRED)) {
                    LIVE_COUNT.getAndAdd(hot, -1);
                    due.add(entry.task);
                }
            }
            settleLocked(now, null, null);
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

    /** Takes cancelled entries off the head (lock held). */
    private void dropCancelledHeads() {
        while (head != null && head.state != Entry.LIVE) {
            unlink(head);
        }
    }

    /** Takes every cancelled entry out of the list (lock held); amortized over the cancels it reclaims. */
    private void sweep() {
        for (Entry entry = head; entry != null; ) {
            Entry next = entry.next;
            if (entry.state != Entry.LIVE) {
                unlink(entry);
            }
            entry = next;
        }
    }

    /** The last live deadline ended: if none was added meanwhile, the list empties and no timer is left. */
    private void lastEnded() {
        lock.lock();
        try {
            if (hot.live != 0) {
                return; // an add came meanwhile; its entry keeps the timer
            }
            sweep(); // every linked entry has ended, unless an add came since: settling sets the timer for it
            settleLocked(clock.millis(), null, null);
        } finally {
            lock.unlock();
        }
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
        linked++;
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
        linked--;
    }

    /** How many deadlines are waiting (for tests). */
    int size() {
        return hot.live;
    }

    /**
     * How many entries the list and the incoming stack hold, cancelled ones not yet taken out too
     * (for tests).
     */
    int linked() {
        lock.lock();
        try {
            int stacked = 0;
            for (Entry e = hot.top; e != null; e = e.pushedOn) { // only a lock holder unlinks the stack
                stacked++;
            }
            return linked + stacked;
        } finally {
            lock.unlock();
        }
    }

    private static final VarHandle LIVE_COUNT;
    private static final VarHandle TOP;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            LIVE_COUNT = lookup.findVarHandle(HotFields.class, "live", int.class);
            TOP = lookup.findVarHandle(HotFields.class, "top", Entry.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * What every add and every cancel writes, on a cache line of its own (docs/decisions.md D241):
     * an add takes this one line from another carrier, where it took up to three (the live count's,
     * the list object's, which also held the timer's due time every add reads, and the previous top
     * entry's, read for its depth); the list object is now only read between drains. Padded
     * before (a superclass's fields come first) and after, 128 bytes each side, so nothing written
     * elsewhere shares the line or its prefetch pair.
     */
    @SuppressWarnings("unused")
    private abstract static class HotPadding {
        int gap; // fills the hole after a 12-byte object header, which a subclass's int would take
        long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
    }

    private abstract static class HotFields extends HotPadding {
        volatile int live;   // entries neither cancelled nor fired; through LIVE_COUNT
        volatile Entry top;  // pushed, not yet in the list: a stack, newest first; through TOP
        int stacked;         // about how many entries the stack holds (see push)
    }

    @SuppressWarnings("unused")
    private static final class Hot extends HotFields {
        long q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;
    }

    /** One deadline; cancelling it marks it (idempotent), and it leaves the list later. */
    private final class Entry implements Cancellable {
        static final int LIVE = 0;
        static final int CANCELLED = 1;
        static final int FIRED = 2;
        private static final AtomicIntegerFieldUpdater<Entry> STATE =
                AtomicIntegerFieldUpdater.newUpdater(Entry.class, "state");

        final long due;
        final Runnable task;
        volatile int state;  // LIVE, then CANCELLED or FIRED, once
        Entry prev;          // guarded by lock
        Entry next;          // guarded by lock
        Entry pushedOn;      // the entry below it on the incoming stack; written before its push, then under lock

        Entry(long due, Runnable task) {
            this.due = due;
            this.task = task;
        }

        /** Ends the entry as {@code how}; false if it had ended already. */
        boolean end(int how) {
            return STATE.compareAndSet(this, LIVE, how);
        }

        @Override
        public void cancel() {
            if (end(CANCELLED) && (int) LIVE_COUNT.getAndAdd(hot, -1) == 1) {
                lastEnded();
            }
        }
    }
}
