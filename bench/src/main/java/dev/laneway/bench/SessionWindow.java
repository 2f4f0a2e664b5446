package dev.laneway.bench;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Keeps every benchmark session idle when its next message arrives: at most one message per
 * session is in flight, so each accept really starts a run, and in steady state accepted
 * messages per second equal runs started and finished per second. Also counts agent starts for
 * the latency benchmark.
 *
 * <p>When the next session is still busy, the benchmark thread spins briefly (a single chat's
 * round trip takes microseconds) and then parks until the run's hook wakes it, so that on a small
 * machine it does not take a core away from the engine it is waiting for. Hooks run on executor
 * threads; everything else on the one benchmark thread. {@code busy} and {@code waitingFor} are
 * both written then read across threads (volatile), so a wake-up is never lost.
 */
final class SessionWindow implements RunHooks {

    private static final long SPIN_NANOS = 20_000;
    private static final long GIVE_UP_NANOS = 30_000_000_000L;

    private final int sessions;
    private final AtomicIntegerArray busy;
    private final AtomicLong starts = new AtomicLong();
    private final Spin spin = new Spin();
    private volatile int waitingFor = -1;
    private volatile Thread waiter;
    private int next;

    SessionWindow(int sessions) {
        this.sessions = sessions;
        this.busy = new AtomicIntegerArray(sessions);
    }

    /**
     * The next session in round-robin order, once its previous message has ended; it is marked
     * busy until the pipeline reports it finished.
     */
    int nextIdleSession() {
        int session = next;
        next = session + 1 == sessions ? 0 : session + 1;
        if (busy.get(session) != 0) {
            awaitIdle(session);
        }
        busy.set(session, 1);
        return session;
    }

    private void awaitIdle(int session) {
        long start = System.nanoTime();
        int spins = 0;
        while (busy.get(session) != 0) {
            if ((++spins & 0x1F) != 0 || System.nanoTime() - start < SPIN_NANOS) {
                Thread.onSpinWait();
                continue;
            }
            waiter = Thread.currentThread();
            waitingFor = session;
            while (busy.get(session) != 0) {
                LockSupport.parkNanos(1_000_000);
                if (System.nanoTime() - start > GIVE_UP_NANOS) {
                    throw new IllegalStateException("gave up waiting 30 s for session " + session + " to finish its run");
                }
            }
            waitingFor = -1;
        }
    }

    long starts() {
        return starts.get();
    }

    /** Spins until the agent has been started {@code target} times in all (latency: no parking). */
    void awaitStarts(long target) {
        while (starts.get() < target) {
            spin.pause("the agent to start");
        }
        spin.reset();
    }

    /** Waits until no session has a message in flight. */
    void awaitAllFinished() {
        for (int i = 0; i < sessions; i++) {
            if (busy.get(i) != 0) {
                awaitIdle(i);
            }
        }
    }

    @Override
    public void started(int session) {
        starts.incrementAndGet();
    }

    @Override
    public void finished(int session) {
        busy.set(session, 0);
        if (waitingFor == session) {
            LockSupport.unpark(waiter);
        }
    }
}
