package dev.laneway.core.engine;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One session's lock, and the one way to work under it: a step runs with the lock held and
 * collects its side effects in an {@link Effects}, which run, in order, once the lock is released.
 * Owned by a {@link SessionQueue}; handed to the helpers whose callbacks (lane grants, timers,
 * executor tasks, agent events) must take it. Before the lock is released, {@code check} runs (the
 * owner's invariant check, which asserts; the owner passes none when assertions are off).
 *
 * <p>It is the {@link ReentrantLock} itself rather than holding one (an object less per session,
 * a pointer less per step); callers use {@link #locked}, {@link #lockedGet} and {@link #underLock},
 * never {@code lock()} and {@code unlock()} directly.
 */
final class SessionLock extends ReentrantLock {

    private final Runnable check;

    /** @param check the owner's invariant check, or null for none */
    SessionLock(Runnable check) {
        this.check = check;
    }

    /** Runs {@code step} with the lock held, then, with the lock released, the effects it collected. */
    void locked(Consumer<Effects> step) {
        Effects fx = new Effects();
        lock();
        try {
            step.accept(fx);
            check();
        } finally {
            unlock();
            fx.run();
        }
    }

    /** As {@link #locked(Consumer)}, returning what {@code step} returns. */
    <T> T lockedGet(Function<Effects, T> step) {
        Effects fx = new Effects();
        lock();
        try {
            T result = step.apply(fx);
            check();
            return result;
        } finally {
            unlock();
            fx.run();
        }
    }

    /** Runs {@code step} with the lock held, for a step that has no side effects to carry out. */
    <T> T underLock(Supplier<T> step) {
        lock();
        try {
            T result = step.get();
            check();
            return result;
        } finally {
            unlock();
        }
    }

    private void check() {
        if (check != null) {
            check.run();
        }
    }

    /** Whether the calling thread holds this lock (for checks of the lock discipline). */
    boolean heldByCurrentThread() {
        return isHeldByCurrentThread();
    }
}
