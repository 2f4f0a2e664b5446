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

    /** A permit held by this instance. */
    @FunctionalInterface
    interface Permit {
        /** Gives it back (best effort: one the store cannot take back expires by itself). */
        void release();
    }
}
