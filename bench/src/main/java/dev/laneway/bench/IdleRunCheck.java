package dev.laneway.bench;

import dev.laneway.core.Disposition;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The rule of the idle-session benchmarks: a message to an idle session starts a run of its own, so
 * it must end as {@link Disposition#RAN}. Anything else (collected or queued behind another run,
 * refused, a duplicate) means the benchmark measured another path, and {@link #verify} fails the
 * trial. Called from engine threads: the counters are concurrent.
 */
final class IdleRunCheck {

    private final LongAdder ran = new LongAdder();
    private final LongAdder other = new LongAdder();
    private final AtomicReference<Disposition> firstOther = new AtomicReference<>();

    /** Records how a message ended; true if it ran. */
    boolean record(Disposition disposition) {
        if (disposition == Disposition.RAN) {
            ran.increment();
            return true;
        }
        other.increment();
        firstOther.compareAndSet(null, disposition);
        return false;
    }

    long ran() {
        return ran.sum();
    }

    /** Throws if any message ended other than as run, naming how many and the first such ending. */
    void verify() {
        long others = other.sum();
        if (others != 0) {
            throw new IllegalStateException(others + " of " + (others + ran.sum()) + " messages to idle sessions did not"
                    + " end as RAN (first: " + firstOther.get() + "); every one must start a run of its own");
        }
    }
}
