package dev.laneway.core.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.laneway.core.SessionKey;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The share rules of {@link IngressElection} (docs/behaviour.md §17, "Ingress"; D220), checked by
 * check: several elections of one fleet over in-memory leases (the lease table's own behaviour,
 * ttl and renewal, is Redis's and tested against a real redis-server in store-redis and the
 * channels), each check run by advancing the manual clock, on the caller's thread.
 */
class IngressElectionTest {

    private static final Duration CHECK = Duration.ofSeconds(5);
    private static final List<SessionKey> KEYS = List.of(SessionKey.of("ingress:test:0"), SessionKey.of("ingress:test:1"),
            SessionKey.of("ingress:test:2"), SessionKey.of("ingress:test:3"));

    private final ManualTime time = new ManualTime();
    private final Table table = new Table();
    private final AtomicInteger live = new AtomicInteger();

    @Test
    void aLoneInstanceTakesEveryConnection_andGivesOneACheckToNewcomersUntilTheShareIsEven() {
        IngressElection a = join("a");
        a.start();
        assertEquals(List.of(0, 1, 2, 3), a.heldHere());

        IngressElection b = join("b");
        b.start();
        assertEquals(List.of(), b.heldHere(), "all held");
        time.advance(CHECK);
        time.advance(CHECK);
        time.advance(CHECK);
        assertEquals(List.of(0, 1), a.heldHere(), "ceil(4 / 2) each");
        assertEquals(List.of(2, 3), b.heldHere());
        time.advance(CHECK.multipliedBy(5));
        assertEquals(List.of(0, 1), a.heldHere(), "stable");
    }

    @Test
    void aConnectionGivenBackWhileItsHolderStillCountsAsLive_isTakenAsAnOrphan_andKept() {
        IngressElection a = join("a");
        IngressElection b = join("b");
        a.start();
        b.start();
        assertEquals(List.of(0, 1), a.heldHere());
        assertEquals(List.of(2, 3), b.heldHere());

        a.stop();                                   // SIGTERM: released at once, a still counted live
        assertEquals(List.of(), a.heldHere());
        time.advance(CHECK);
        assertEquals(List.of(2, 3), b.heldHere(), "first seen free: b is at its share");
        time.advance(CHECK);
        assertEquals(List.of(0, 1, 2, 3), b.heldHere(), "free for a whole check: orphans, taken");
        time.advance(CHECK.multipliedBy(10));
        assertEquals(List.of(0, 1, 2, 3), b.heldHere(), "kept while the live count stays the same");
    }

    @Test
    void aLostLeaseClosesItsConnection_andAFreeOneIsTakenAgainAtTheNextCheck() {
        List<String> log = new ArrayList<>();
        IngressElection a = join("a", log);
        a.start();
        table.steal(KEYS.get(1), "elsewhere");
        assertEquals(List.of(0, 2, 3), a.heldHere());
        assertEquals(List.of("open 0", "open 1", "open 2", "open 3", "close 1"), log);
        table.free(KEYS.get(1));
        time.advance(CHECK);
        assertEquals(List.of(0, 1, 2, 3), a.heldHere());
    }

    private IngressElection join(String instance) {
        return join(instance, new ArrayList<>());
    }

    private IngressElection join(String instance, List<String> log) {
        live.incrementAndGet();
        return new IngressElection(table.leasesOf(instance), KEYS, time, Runnable::run, CHECK,
                new IngressElection.Connections() {
                    @Override
                    public void open(int index) {
                        log.add("open " + index);
                    }

                    @Override
                    public void close(int index) {
                        log.add("close " + index);
                    }
                }, new IngressElection.Standing() {
                    @Override
                    public int liveInstances() {
                        return live.get();
                    }

                    @Override
                    public boolean held(SessionKey key) {
                        return table.holder(key).isPresent();
                    }
                }, new QuietEvents());
    }

    /** One lease table for the test's instances: who holds each key, the fencing tokens, and each holder's loss callbacks. */
    private static final class Table {
        private final Map<SessionKey, String> holders = new HashMap<>();
        private final Map<SessionKey, SessionLeases.LeaseLost> onLost = new HashMap<>();
        private final Map<SessionKey, Lease> leases = new HashMap<>();
        private final AtomicLong fence = new AtomicLong();

        SessionLeases leasesOf(String instance) {
            return new SessionLeases() {
                @Override
                public Optional<Lease> tryAcquire(SessionKey session, LeaseLost lost) {
                    if (holders.containsKey(session)) {
                        return Optional.empty();
                    }
                    Lease lease = new Lease(session, fence.incrementAndGet());
                    holders.put(session, instance);
                    leases.put(session, lease);
                    onLost.put(session, lost);
                    return Optional.of(lease);
                }

                @Override
                public void release(Lease lease) {
                    if (lease.equals(leases.get(lease.session()))) {
                        free(lease.session());
                    }
                }
            };
        }

        Optional<String> holder(SessionKey key) {
            return Optional.ofNullable(holders.get(key));
        }

        /** Another instance took it after it expired: its holder is told. */
        void steal(SessionKey key, String instance) {
            Lease lost = leases.remove(key);
            SessionLeases.LeaseLost told = onLost.remove(key);
            holders.put(key, instance);
            told.lost(lost);
        }

        void free(SessionKey key) {
            holders.remove(key);
            leases.remove(key);
            onLost.remove(key);
        }
    }

    private static final class QuietEvents implements IngressElection.Events {
        @Override
        public void taken(int index, Lease lease) {
        }

        @Override
        public void gaveUp(int index, boolean stopping) {
        }

        @Override
        public void lost(int index, Lease lease) {
        }

        @Override
        public void couldNotAsk(RuntimeException e, Duration checkEvery) {
        }

        @Override
        public void couldNotOpen(int index, Exception e) {
        }

        @Override
        public void couldNotRelease(int index, RuntimeException e) {
        }
    }
}
