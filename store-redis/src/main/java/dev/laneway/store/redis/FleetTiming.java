package dev.laneway.store.redis;

import java.time.Duration;
import java.util.Objects;

/**
 * How long a fleet's leases, permits and heartbeats live without renewal, and how often an instance
 * renews them (docs/configuration.md §17). An instance renews everything it holds every
 * {@code renewEvery}; what it fails to renew for {@code ttl} is gone (Redis expires it), so a dead
 * instance's sessions and permits come back after at most {@code ttl}.
 *
 * @param ttl        lifetime of a lease, a permit and the heartbeat without renewal
 * @param renewEvery how often the instance renews them; at most a third of {@code ttl}, so two
 *                   renewals can fail before anything expires
 */
public record FleetTiming(Duration ttl, Duration renewEvery) {

    public static final FleetTiming DEFAULTS = new FleetTiming(Duration.ofSeconds(15), Duration.ofSeconds(5));

    public FleetTiming {
        Objects.requireNonNull(ttl, "ttl");
        Objects.requireNonNull(renewEvery, "renewEvery");
        if (ttl.toMillis() < 3) {
            throw new IllegalArgumentException("the lease ttl must be at least 3 ms, got " + ttl);
        }
        if (renewEvery.isNegative() || renewEvery.isZero() || renewEvery.multipliedBy(3).compareTo(ttl) > 0) {
            throw new IllegalArgumentException("renewEvery must be positive and at most a third of the ttl ("
                    + ttl + "), got " + renewEvery);
        }
    }

    /** A ttl with renewals at a third of it. */
    public static FleetTiming of(Duration ttl) {
        return new FleetTiming(ttl, ttl.dividedBy(3));
    }
}
