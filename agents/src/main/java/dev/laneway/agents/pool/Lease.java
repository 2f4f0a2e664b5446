package dev.laneway.agents.pool;

import dev.laneway.core.lane.LanePermit;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The right to make one model call through a pool (docs/behaviour.md §14.1): a permit of the pool's
 * concurrency limit and, with a circuit breaker, its permission. The caller reports how the call went
 * ({@link #succeeded}, {@link #rateLimited}, {@link #failed}; the first report counts, later ones
 * are ignored) and then closes the lease, on every path: {@link #close} gives the permit back exactly
 * once, and ends the breaker's permission as "neither" when nothing was reported (an abort, a 400).
 * Thread-safe: reports and close are guarded by atomic flags.
 */
public final class Lease implements AutoCloseable {

    private final ProviderPool pool;
    private final LanePermit permit;
    private final int inFlight;
    private final long grant;
    private final AtomicBoolean reported = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile long startedAtMillis;

    Lease(ProviderPool pool, LanePermit permit, int inFlight, long grant) {
        this.pool = pool;
        this.permit = permit;
        this.inFlight = inFlight;
        this.grant = grant;
    }

    /** Its number among the pool's grants (1, 2, ...). */
    long grant() {
        return grant;
    }

    void started(long nowMillis) {
        startedAtMillis = nowMillis;
    }

    long startedAtMillis() {
        return startedAtMillis;
    }

    /** Calls in flight through the pool when this one was granted, itself included. */
    int inFlight() {
        return inFlight;
    }

    public String pool() {
        return pool.name();
    }

    /** The call answered; {@code usage} feeds the pool's {@code tpm} ({@link Usage#NONE} when the provider gave none). */
    public void succeeded(Usage usage) {
        if (reported.compareAndSet(false, true)) {
            pool.succeeded(this, usage);
        }
    }

    /** The provider answered 429: the whole pool pauses for {@code pause} (one coordinated backoff). */
    public void rateLimited(Duration pause) {
        if (reported.compareAndSet(false, true)) {
            pool.rateLimited(this, pause);
        }
    }

    /** The endpoint failed: a 5xx, a timeout ({@code timeout} true), a refused or broken connection. */
    public void failed(boolean timeout) {
        if (reported.compareAndSet(false, true)) {
            pool.failed(this, timeout);
        }
    }

    /** Gives the permit back (once); a lease with no report ends the breaker's permission as neither. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            if (reported.compareAndSet(false, true)) {
                pool.released(this);
            }
        } finally {
            permit.close();
        }
    }

    boolean isClosed() {
        return closed.get();
    }
}
