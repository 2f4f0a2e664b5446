package dev.laneway.core.fleet;

/**
 * Fleet-wide permits of one cap (the {@code main} cap): a counting semaphore shared by every
 * instance, whose permits expire when their instance stops renewing them (docs/architecture.md
 * §7.1). Thread-safe; {@link #tryAcquire} may block for a round trip to the shared store.
 */
@FunctionalInterface
public interface FleetPermitSource {

    /**
     * Takes one permit, or returns null when the fleet holds as many as its cap.
     *
     * @throws RuntimeException when the shared store cannot be asked (treated as "none now")
     */
    Permit tryAcquire();

    /** A permit held by this instance. */
    @FunctionalInterface
    interface Permit {
        /** Gives it back (best effort: one the store cannot take back expires by itself). */
        void release();
    }
}
