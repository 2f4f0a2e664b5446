package dev.laneway.core.engine;

import dev.laneway.core.SessionKey;
import dev.laneway.core.fleet.Fleet;
import dev.laneway.core.fleet.Lease;
import dev.laneway.core.fleet.SessionLeases;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/** A fleet of one for engine tests: leases always granted here; nothing else happens in the fleet. */
final class OneFleet implements Fleet {

    private final Map<SessionKey, Lease> leases = new ConcurrentHashMap<>();

    @Override
    public String instanceId() {
        return "here";
    }

    @Override
    public SessionLeases leases() {
        return new SessionLeases() {
            @Override
            public Optional<Lease> tryAcquire(SessionKey session, LeaseLost onLost) {
                return Optional.of(leases.computeIfAbsent(session, s -> new Lease(s, 1)));
            }

            @Override
            public void release(Lease lease) {
                leases.remove(lease.session(), lease);
            }
        };
    }

    @Override
    public void nudge(SessionKey session) {
    }

    @Override
    public void onNudge(Consumer<SessionKey> handler) {
    }

    @Override
    public List<SessionKey> unleased(int limit) {
        return List.of();
    }

    @Override
    public Duration sweepEvery() {
        return Duration.ofSeconds(5);
    }
}
