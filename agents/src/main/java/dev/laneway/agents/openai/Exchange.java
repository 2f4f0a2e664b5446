package dev.laneway.agents.openai;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.Future;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One HTTP attempt that another thread may cut: {@code abort()} (an engine thread) or the timeout
 * watchdog (the scheduler's thread).
 *
 * <p>Concurrency: {@code lock} guards every field. The run thread attaches the pending response
 * future, then the body stream; a cut cancels the future (aborting the exchange) and closes the
 * body (the connection closes, so the server sees the client leave, and the run thread's blocked
 * read ends). A cut requested from another thread runs on a fresh virtual thread, so neither
 * {@code abort()} nor a scheduler task ever waits on I/O. Whatever is attached after a cut is cut
 * at once.
 */
final class Exchange {

    private final ReentrantLock lock = new ReentrantLock();
    private boolean cut;          // guarded by lock
    private boolean timedOut;     // guarded by lock
    private Future<?> response;   // guarded by lock: the sendAsync future, once sent
    private InputStream body;     // guarded by lock: the response body, once headers arrived

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

    /** The watchdog's task: marks the exchange timed out and cuts it. */
    void expire() {
        lock.lock();
        try {
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
