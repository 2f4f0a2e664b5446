package dev.laneway.core.scheduling;

/**
 * A tenant's share of {@code main}.
 *
 * @param weight     its weight in the fair share among tenants of one class (≥ 1: a tenant of weight
 *                   2 gets two runs for every one of a tenant of weight 1 while both wait)
 * @param maxRunning how many of its runs may hold {@code main} at once; 0: no cap of its own
 * @param maxPending how many of its runs may wait for {@code main}; beyond it a message that would
 *                   start another gets the busy reply; 0: no cap of its own
 */
public record TenantLimits(int weight, int maxRunning, int maxPending) {

    public static final int MAX_WEIGHT = 1000;
    public static final TenantLimits DEFAULT = new TenantLimits(1, 0, 0);

    public TenantLimits {
        if (weight < 1 || weight > MAX_WEIGHT) {
            throw new IllegalArgumentException("a tenant's weight must be 1.." + MAX_WEIGHT + ", got " + weight);
        }
        if (maxRunning < 0 || maxPending < 0) {
            throw new IllegalArgumentException("tenant caps must be >= 0 (0: none), got maxRunning=" + maxRunning
                    + ", maxPending=" + maxPending);
        }
    }
}
