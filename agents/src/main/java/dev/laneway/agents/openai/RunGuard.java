package dev.laneway.agents.openai;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A run's abort switch and its current HTTP exchange.
 *
 * <p>Concurrency: {@code lock} guards {@code aborted} and {@code current}. {@link #abort} comes
 * from an engine thread (under the engine's session lock): it flips the flag, completes
 * {@link #abortSignal()} (waking a backoff wait) and asks the current exchange to cut itself on
 * another thread, so it never blocks. The run thread opens and closes exchanges; an exchange
 * cannot be opened after the abort.
 */
final class RunGuard {

    private final ReentrantLock lock = new ReentrantLock();
    private final CompletableFuture<Void> abortSignal = new CompletableFuture<>();
    private boolean aborted;     // guarded by lock
    private Exchange current;    // guarded by lock: the exchange in flight, or null

    void abort() {
        Exchange inFlight;
        lock.lock();
        try {
            if (aborted) {
                return;
            }
            aborted = true;
            inFlight = current;
        } finally {
            lock.unlock();
        }
        abortSignal.complete(null);
        if (inFlight != null) {
            inFlight.cutLater();
        }
    }

    boolean aborted() {
        lock.lock();
        try {
            return aborted;
        } finally {
            lock.unlock();
        }
    }

    /** Completes when the run is aborted. */
    CompletableFuture<Void> abortSignal() {
        return abortSignal;
    }

    Exchange open() throws CallFailure {
        lock.lock();
        try {
            if (aborted) {
                throw CallFailure.aborted();
            }
            current = new Exchange();
            return current;
        } finally {
            lock.unlock();
        }
    }

    void close(Exchange exchange) {
        lock.lock();
        try {
            if (current == exchange) {
                current = null;
            }
        } finally {
            lock.unlock();
        }
    }
}
