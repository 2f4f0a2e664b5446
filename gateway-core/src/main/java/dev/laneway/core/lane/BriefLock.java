package dev.laneway.core.lane;

import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link ReentrantLock} for critical sections of a few instructions that every run passes through
 * (the run deadlines' list, an outbox stripe, the {@code main} scheduler): {@link #lock} spins briefly before it parks. A virtual
 * thread that parks on a lock gives up its carrier and is resubmitted when woken, which costs far
 * more than the section it waited for; with the holder running on another carrier, a short spin
 * gets the lock first. Past the spin (the holder was descheduled, or itself waits), it parks as
 * {@code ReentrantLock.lock} does. Unfair, as {@code ReentrantLock} is by default.
 */
public final class BriefLock extends ReentrantLock {

    private static final int SPINS = 64;

    @Override
    public void lock() {
        for (int i = 0; i < SPINS; i++) {
            if (tryLock()) {
                return;
            }
            Thread.onSpinWait();
        }
        super.lock();
    }
}
