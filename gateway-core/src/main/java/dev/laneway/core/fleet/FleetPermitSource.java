package dev.laneway.core.fleet;

/**
 * Fleet-wide permits of one cap (the {@code main} cap, or one of {@link FleetCaps}): a counting
 * semaphore shared by every instance, whose permits expire when their instance stops renewing them
 * (docs/architecture.md §7.1). Thread-safe; {@link #tryAcquire} may block for a round trip to the
 * shared store.
 */
@FunctionalInterface
public interface FleetPermitSource {

    /**
     * Takes one permit, or returns null when the fleet holds as many as its cap.
     *
     * @throws RuntimeException when the shared store cannot be asked (treated as "none now")
     */
    Permit tryAcquire();

    /**
     * Tells {@code listener} of each permit taken here that expired before it was renewed (the store
     * was out of reach for a whole ttl): the fleet no longer counts it, so neither may its holder
     * (docs/architecture.md §7.1). Called from the renewing thread; the listener must be quick. A
     * source whose permits never expire ignores it.
     */
    default void onLost(java.util.function.Consumer<Permit> listener) {
    }

    /**
     * Publishes this instance's {@code demand} for the cap (the runs holding and waiting for its
     * permits) and returns its fair share now (docs/decisions.md D228); the published demand expires
     * when it is not published again. May block for a round trip; called by {@code FleetAllowance}
     * at most once per retry interval while the cap is busy here. A source that is not shared with
     * other instances keeps the default: null (no share kept, nothing published).
     *
     * @throws RuntimeException when the shared store cannot be asked (the last share is kept)
     */
    default FairShare share(int demand) {
        return null;
    }

    /** A permit held by this instance. */
    @FunctionalInterface
    interface Permit {
        /** Gives it back (best effort: one the store cannot take back expires by itself). */
        void release();
    }
}
