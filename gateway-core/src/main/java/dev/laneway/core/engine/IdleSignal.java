package dev.laneway.core.engine;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * Lets a shutdown wait until every session is idle. A {@link ReentrantLock} condition rather than
 * {@code wait/notify}, so waiting never pins a virtual thread.
 *
 * <p>Concurrency: {@code lock} guards the condition; {@code waiters} (volatile, written under the
 * lock) counts threads in {@link #await}, so a signal with nobody waiting (every run's end, in
 * normal operation) takes no lock. No wake-up is lost: a waiter counts itself before it checks its
 * condition, and a signaller changes what the condition reads (concurrent maps, atomics, locks)
 * before it reads the count, so either the signaller sees the waiter or the waiter sees the change.
 */
final class IdleSignal {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private volatile int waiters; // written under lock

    /** Wakes every waiter to re-check its condition. */
    void signal() {
        if (waiters == 0) {
            return;
        }
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Waits until {@code done} holds or the timeout passes; returns whether it holds. */
    boolean await(BooleanSupplier done, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        lock.lock();
        waiters++;
        try {
            while (!done.getAsBoolean()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                changed.await(Math.min(left, TimeUnit.MILLISECONDS.toNanos(200)), TimeUnit.NANOSECONDS);
            }
            return true;
        } finally {
            waiters--;
            lock.unlock();
        }
    }
}
