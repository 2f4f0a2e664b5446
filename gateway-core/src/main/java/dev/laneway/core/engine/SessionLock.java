package dev.laneway.core.engine;

import java.util.concurrent.locks.AbstractQueuedSynchronizer;
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
 * <p>It is a reentrant, unfair exclusive lock written on {@link AbstractQueuedSynchronizer} itself,
 * as {@code ReentrantLock}'s own is, rather than a {@code ReentrantLock} holding one: one object per
 * session instead of two, and one cache line less for a carrier to fetch each time a run's step
 * takes a lock nobody has touched since the run was made (docs/decisions.md D94). A thread that
 * waits parks as it would on a {@code ReentrantLock} (a virtual thread gives up its carrier).
 * Callers use {@link #locked}, {@link #lockedGet} and {@link #underLock}, never {@code lock()} and
 * {@code unlock()} directly.
 */
final class SessionLock extends AbstractQueuedSynchronizer {

    private final Runnable check;

    /** @param check the owner's invariant check, or null for none */
    SessionLock(Runnable check) {
        this.check = check;
    }

    private void lock() {
        acquire(1);
    }

    private void unlock() {
        release(1);
    }

    @Override
    protected boolean tryAcquire(int acquires) {
        Thread current = Thread.currentThread();
        int held = getState();
        if (held == 0) {
            if (compareAndSetState(0, acquires)) {
                setExclusiveOwnerThread(current);
                return true;
            }
        } else if (getExclusiveOwnerThread() == current) {
            int next = held + acquires;
            if (next < 0) {
                throw new Error("maximum lock count exceeded");
            }
            setState(next);
            return true;
        }
        return false;
    }

    @Override
    protected boolean tryRelease(int releases) {
        if (getExclusiveOwnerThread() != Thread.currentThread()) {
            throw new IllegalMonitorStateException();
        }
        int held = getState() - releases;
        boolean free = held == 0;
        if (free) {
            setExclusiveOwnerThread(null);
        }
        setState(held);
        return free;
    }

    @Override
    protected boolean isHeldExclusively() {
        return getExclusiveOwnerThread() == Thread.currentThread();
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
        return isHeldExclusively();
    }
}
