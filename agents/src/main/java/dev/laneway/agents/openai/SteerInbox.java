package dev.laneway.agents.openai;

import dev.laneway.core.agent.SteerMessage;
import dev.laneway.core.agent.SteerResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Steers a run has accepted but not yet put into its conversation.
 *
 * <p>Concurrency: {@code lock} guards {@code pending} and {@code open}. The engine offers while it
 * holds its session lock, so every method holds this lock only briefly and never calls out. The
 * run thread closes the inbox when it decides to finish ({@link #closeIfEmpty}) or when it fails
 * or is aborted ({@link #close}); from then on offers are refused, so a steer is either seen by
 * the model or handed back as unseen, never lost.
 */
final class SteerInbox {

    private final ReentrantLock lock = new ReentrantLock();
    private final List<SteerMessage> pending = new ArrayList<>(); // guarded by lock, arrival order
    private boolean open = true;                                  // guarded by lock

    SteerResult offer(List<SteerMessage> messages) {
        List<SteerMessage> copy = List.copyOf(messages);
        lock.lock();
        try {
            if (!open) {
                return SteerResult.REFUSED;
            }
            pending.addAll(copy);
            return SteerResult.ACCEPTED;
        } finally {
            lock.unlock();
        }
    }

    boolean hasPending() {
        lock.lock();
        try {
            return !pending.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /** Removes and returns the pending steers, oldest first. */
    List<SteerMessage> take() {
        lock.lock();
        try {
            List<SteerMessage> taken = List.copyOf(pending);
            pending.clear();
            return taken;
        } finally {
            lock.unlock();
        }
    }

    /** Closes the inbox if nothing is pending; returns false (and stays open) otherwise. */
    boolean closeIfEmpty() {
        lock.lock();
        try {
            if (pending.isEmpty()) {
                open = false;
            }
            return !open;
        } finally {
            lock.unlock();
        }
    }

    /** Closes the inbox and returns what was still pending. */
    List<SteerMessage> close() {
        lock.lock();
        try {
            open = false;
            return take();
        } finally {
            lock.unlock();
        }
    }
}
