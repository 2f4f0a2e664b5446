package dev.laneway.core.scheduling;

/**
 * A count of slots that may be held at once only as far as fleet-wide permits allow
 * (docs/architecture.md §7.1): {@code main}'s (or a provider pool's) slots, one tenant's running
 * cap, the background share. Its owner ({@code FleetAllowance}) takes fleet permits while the gate
 * wants more and gives back what {@link #trimAllowance} says is spare. Implementations lock
 * themselves; every method may be called from any thread.
 */
public interface AllowanceGate {

    /** The fleet-wide cap's name: {@code main}, {@code tenant:<id>}, {@code class:background}, {@code provider:<pool>}. */
    String name();

    /** How many more slots the runs waiting here could use than the allowance gives (0 when none). */
    int allowanceWanted();

    /** {@code more} fleet permits were taken: the allowance grows and waiters are served at once. */
    void addAllowance(int more);

    /**
     * Lowers the allowance to what holding and waiting runs need, in one step under the gate's lock,
     * and returns by how much (that many permits go back).
     */
    int trimAllowance();

    /** {@code fewer} permits expired before their renewal: the allowance drops, possibly below what runs hold. */
    void loseAllowance(int fewer);

    /** The allowance now (the fleet permits held for this gate). */
    int allowance();

    /** The slots the runs holding and waiting here could use now, whatever the allowance (published for the fair share). */
    default int demand() {
        return allowance() + allowanceWanted();
    }

    /**
     * Holds the allowance to at most {@code ceiling} (this instance's fair share of the fleet's cap
     * while another instance is short of its own, docs/decisions.md D228): a slot freed above it is
     * handed to no waiter, so {@link #trimAllowance} gives its permit back. {@link Integer#MAX_VALUE}
     * lifts it. A gate that cannot hold back its hand-offs ignores it (first come, first served).
     */
    default void limitAllowance(int ceiling) {
    }
}
