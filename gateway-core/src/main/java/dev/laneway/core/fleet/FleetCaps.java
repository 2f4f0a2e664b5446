package dev.laneway.core.fleet;

/**
 * The fleet's named caps (docs/architecture.md §7.1): for each name ({@code main},
 * {@code tenant:<id>}, {@code class:background}, {@code provider:<pool>}) a counting semaphore
 * shared by every instance, whose permits expire when their instance stops renewing them, so a
 * dead instance's permits come back. Thread-safe.
 */
@FunctionalInterface
public interface FleetCaps {

    /**
     * The permits of the cap called {@code name}, of which the fleet holds at most {@code cap} at once
     * (every instance has the same configuration, so the same cap). Cheap: a source may be asked for
     * whenever a cap becomes busy; what it holds is kept by name, not by the source object.
     */
    FleetPermitSource permits(String name, int cap);
}
