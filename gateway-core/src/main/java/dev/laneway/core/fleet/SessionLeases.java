package dev.laneway.core.fleet;

import dev.laneway.core.SessionKey;
import java.util.Optional;

/**
 * Per-session leases: at most one run of a session in the whole fleet (docs/behaviour.md §17,
 * docs/architecture.md §7.1). A run takes its session's lease before it starts, the implementation
 * renews it while it is held, and the run releases it at its end. An instance that loses a lease
 * (it could not renew it in time, or another instance holds it now) is told through the
 * {@link LeaseLost} given at {@link #tryAcquire}; it must abort that run and send nothing more.
 *
 * <p>{@link #LOCAL} is the single instance's: every lease is granted at once, with token 0, and
 * nothing is written anywhere.
 *
 * <p>Implementations are thread-safe. {@link #tryAcquire} and {@link #release} may block for a
 * round trip to the shared store: call them where blocking is allowed (the engine's executor),
 * never under a lock.
 */
public interface SessionLeases {

    /** One instance: every session's lease is always granted, token 0, never lost. */
    SessionLeases LOCAL = new SessionLeases() {
        @Override
        public Optional<Lease> tryAcquire(SessionKey session, LeaseLost onLost) {
            return Optional.of(new Lease(session, 0));
        }

        @Override
        public void release(Lease lease) {
        }

        @Override
        public boolean shared() {
            return false;
        }
    };

    /**
     * Takes the session's lease for this instance, or returns empty when another instance holds it.
     * A lease taken is renewed until {@link #release}; if it is lost first, {@code onLost} is
     * called once (on the implementation's thread: it must not block).
     *
     * @throws RuntimeException when the shared store cannot be asked (the caller treats the session
     *                          as busy elsewhere and tries again later)
     */
    Optional<Lease> tryAcquire(SessionKey session, LeaseLost onLost);

    /** Gives the lease back (a no-op when it was lost meanwhile). */
    void release(Lease lease);

    /** Whether leases are shared with other instances (false for {@link #LOCAL}). */
    default boolean shared() {
        return true;
    }

    /** Told when a held lease is lost before its release. */
    @FunctionalInterface
    interface LeaseLost {
        void lost(Lease lease);
    }
}
