package dev.laneway.channels.telegram;

import dev.laneway.core.SessionKey;
import dev.laneway.core.fleet.IngressElection;
import dev.laneway.core.fleet.Lease;
import dev.laneway.core.fleet.SessionLeases;
import dev.laneway.core.time.Scheduler;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exactly one poller per bot token in a fleet (docs/behaviour.md §17, "Ingress"): the fleet's
 * {@link IngressElection} over one lease, {@code ingress:telegram:<sha-256 of the token, 16 hex>},
 * whose holder polls; the others try to take it every {@code checkEvery}. When the poller dies its
 * lease expires and another instance takes it at its next check: polling moves within the lease
 * ttl plus one check. A lost lease stops polling at once; a clean stop releases the lease, so the
 * next check elsewhere takes it. This class names the lease and says what happens in Telegram's
 * words (its own log lines).
 *
 * <p>Concurrency: the election's lock guards what it holds and the start and stop of polling through
 * {@link Poller}; lock order: the election's lock, then the channel's lifecycle lock.
 */
final class PollerElection {

    /** What the election starts and stops: the channel's long polling. */
    interface Poller {
        void startPolling() throws Exception;

        /** Stops polling, leaving what was not handed over on Telegram's server. */
        void stopPolling();
    }

    private static final Logger log = LoggerFactory.getLogger(PollerElection.class);

    private final SessionKey key;
    private final IngressElection election;

    PollerElection(SessionLeases leases, String token, Scheduler timer, Executor executor, Duration checkEvery,
                   Poller poller) {
        Objects.requireNonNull(poller, "poller");
        this.key = keyFor(token);
        this.election = new IngressElection(leases, List.of(key), timer, executor, checkEvery,
                new IngressElection.Connections() {
                    @Override
                    public void open(int index) throws Exception {
                        poller.startPolling();
                    }

                    @Override
                    public void close(int index) {
                        poller.stopPolling();
                    }
                }, IngressElection.Standing.SINGLE, new Words());
    }

    /** {@code ingress:telegram:} and the first 16 hex digits of the token's SHA-256: never the token. */
    static SessionKey keyFor(String token) {
        return SessionKey.of("ingress:telegram:" + IngressElection.tokenHash(token));
    }

    SessionKey key() {
        return key;
    }

    /** The first check, now (on the caller's thread: the start knows at once whether it polls), then every checkEvery. */
    void start() {
        election.start();
    }

    boolean polling() {
        return !election.heldHere().isEmpty();
    }

    /** Stops checking, stops polling if this instance polls, and releases the lease at once (SIGTERM hands it over). */
    void stop() {
        election.stop();
    }

    /** The election's events in Telegram's log lines (docs/behaviour.md §17, "Ingress"). */
    private final class Words implements IngressElection.Events {
        @Override
        public void taken(int index, Lease lease) {
            log.info("telegram: this instance polls for the fleet (lease {}, fencing token {})", key.value(),
                    lease.token());
        }

        @Override
        public void gaveUp(int index, boolean stopping) {
            log.info("telegram: gave up polling for the fleet; another instance takes it at its next check");
        }

        @Override
        public void lost(int index, Lease lease) {
            log.warn("telegram: lost the poller's lease (fencing token {}); polling stopped here, another"
                    + " instance polls", lease.token());
        }

        @Override
        public void couldNotAsk(RuntimeException e, Duration checkEvery) {
            log.warn("telegram: could not ask the fleet who polls ({}); asked again in {} ms", e.getMessage(),
                    checkEvery.toMillis());
        }

        @Override
        public void couldNotOpen(int index, Exception e) {
            log.warn("telegram: could not start polling ({}); the lease is given back and taken again later",
                    e.getMessage());
        }

        @Override
        public void couldNotRelease(int index, RuntimeException e) {
            log.warn("telegram: could not release the poller's lease ({}); it expires by itself", e.getMessage());
        }
    }
}
