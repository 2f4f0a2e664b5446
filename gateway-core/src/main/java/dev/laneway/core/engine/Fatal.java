package dev.laneway.core.engine;

/**
 * The one guard style where the engine calls foreign code (an agent, a channel and its SDK, a
 * channel hook): catch {@link Throwable}, log, carry on. Only a fatal error (a
 * {@link VirtualMachineError}: out of memory, stack overflow, an internal JVM error) is rethrown,
 * and only once the caller's own clean-up is done (a run's lane slots are freed, a chat's queue
 * moves on). Any other {@link Error} (a {@code NoClassDefFoundError} from a broken dependency, an
 * assertion) fails that one call like an exception. See docs/architecture.md §6 "Calling foreign code".
 */
final class Fatal {

    private Fatal() {
    }

    /** Whether {@code e} must reach the top of its thread once the caller has cleaned up. */
    static boolean is(Throwable e) {
        return e instanceof VirtualMachineError;
    }

    /** Rethrows {@code e} if it is fatal; returns otherwise. */
    static void rethrowIfFatal(Throwable e) {
        if (e instanceof VirtualMachineError fatal) {
            throw fatal;
        }
    }
}
