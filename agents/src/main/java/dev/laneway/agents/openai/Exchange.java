package dev.laneway.agents.openai;

import java.io.IOException;
import dev.laneway.core.time.Scheduler;
import java.io.InputStream;
import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One HTTP attempt that another thread may cut: {@code abort()} (an engine thread) or the idle
 * watchdog (the scheduler's thread).
 *
 * <p>Concurrency: {@code lock} guards every field. The run thread attaches the pending response
 * future, then the body stream; a cut cancels the future (aborting the exchange) and closes the
 * body (the connection closes, so the server sees the client leave, and the run thread's blocked
 * read ends). A cut requested from another thread runs on a fresh virtual thread, so neither
 * {@code abort()} nor a scheduler task ever waits on I/O. Whatever is attached after a cut is cut
 * at once.
 *
 * <p>Idle watchdog: {@link #watch} arms it, and the run thread re-arms it with {@link #touch} each
 * time a piece of the response arrives, so it fires only after {@code idle} without progress
 * (waiting for the headers, or between two pieces of the body), never because a healthy stream
 * is long. Each arming has a number; a watchdog that fires after it was replaced does nothing.
 */
final class Exchange {

    private final ReentrantLock lock = new ReentrantLock();
    private boolean cut;          // guarded by lock
    private boolean timedOut;     // guarded by lock
    private Future<?> response;   // guarded by lock: the sendAsync future, once sent
    private InputStream body;     // guarded by lock: the response body, once headers arrived
    private Scheduler scheduler;  // guarded by lock: set while watched
    private Duration idle;        // guarded by lock: set while watched
    private Scheduler.Cancellable watchdog = Scheduler.Cancellable.NONE; // guarded by lock
    private long arming;          // guarded by lock: number of the current watchdog

    /** Arms the idle watchdog: the exchange times out unless {@link #touch} comes within {@code idle}. */
    void watch(Scheduler timer, Duration idleBound) {
        lock.lock();
        try {
            scheduler = timer;
            idle = idleBound;
            rearm();
        } finally {
            lock.unlock();
        }
    }

    /** Progress (headers, or a piece of the body): the idle period starts again. */
    void touch() {
        lock.lock();
        try {
            if (scheduler != null && !cut) {
                rearm();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Stops the watchdog (the attempt is over). */
    void unwatch() {
        lock.lock();
        try {
            watchdog.cancel();
            watchdog = Scheduler.Cancellable.NONE;
            scheduler = null;
            arming++;
        } finally {
            lock.unlock();
        }
    }

    private void rearm() {
        watchdog.cancel();
        long number = ++arming;
        watchdog = scheduler.schedule(idle, () -> expire(number));
    }

    void attach(Future<?> pending) {
        lock.lock();
        try {
            response = pending;
            if (!cut) {
                return;
            }
        } finally {
            lock.unlock();
        }
        pending.cancel(true);
    }

    void attach(InputStream stream) {
        lock.lock();
        try {
            body = stream;
            if (!cut) {
                return;
            }
        } finally {
            lock.unlock();
        }
        closeQuietly(stream);
    }

    /** The watchdog's task: unless it was re-armed since, marks the exchange timed out and cuts it. */
    private void expire(long number) {
        lock.lock();
        try {
            if (number != arming || scheduler == null) {
                return;
            }
            timedOut = true;
        } finally {
            lock.unlock();
        }
        cutLater();
    }

    boolean timedOut() {
        lock.lock();
        try {
            return timedOut;
        } finally {
            lock.unlock();
        }
    }

    /** Cuts the exchange from a fresh virtual thread; returns at once. */
    void cutLater() {
        Thread.ofVirtual().name("openai-cut").start(this::cut);
    }

    /** Cuts the exchange on the calling thread; also used by the run thread to release it. */
    void cut() {
        Future<?> pending;
        InputStream stream;
        lock.lock();
        try {
            cut = true;
            pending = response;
            stream = body;
        } finally {
            lock.unlock();
        }
        if (pending != null) {
            pending.cancel(true);
        }
        if (stream != null) {
            closeQuietly(stream);
        }
    }

    private static void closeQuietly(InputStream stream) {
        try {
            stream.close();
        } catch (IOException | RuntimeException e) {
            // the exchange is being abandoned; nothing to report
        }
    }
}
