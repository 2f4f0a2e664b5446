package dev.laneway.config;

import dev.laneway.config.GatewayConfig.Fleet;
import dev.laneway.config.GatewayConfig.Store;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code gateway.fleet:} the fleet's lease ttl and renewal (docs/configuration.md §17, D180), only
 * with {@code gateway.store.kind: redis}, like the store's {@code url} and {@code fleet}. The rules
 * are {@link Fleet#problem}'s, so a file {@code validate} accepts starts.
 */
final class FleetBinder {

    private FleetBinder() {
    }

    static Fleet bind(Section fleet, Store.Kind kind) {
        KeySpec.Obj spec = ConfigKeys.FLEET;
        if (kind == Store.Kind.SQLITE) {
            for (String key : spec.keyNames()) {
                if (fleet.has(key)) {
                    fleet.problemAtKey(key, "is only used with gateway.store.kind: redis (a single instance"
                            + " holds no leases)");
                }
            }
            return Fleet.DEFAULTS;
        }
        Duration ttl = fleet.duration(spec.leaf("leaseTtlMs"));
        Duration renew = fleet.optionalDuration(spec.leaf("renewEveryMs"));
        if (renew == null) {
            renew = Fleet.defaultRenewEvery(ttl);
        }
        Optional<String> problem = Fleet.problem(ttl, renew);
        if (problem.isPresent()) {
            String key = problem.get().startsWith("leaseTtlMs") ? "leaseTtlMs" : "renewEveryMs";
            fleet.problem(key, problem.get().substring(key.length() + 1));
            return Fleet.DEFAULTS;
        }
        return new Fleet(ttl, renew);
    }
}
