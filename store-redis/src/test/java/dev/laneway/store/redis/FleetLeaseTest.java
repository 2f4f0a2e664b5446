package dev.laneway.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.SessionKey;
import dev.laneway.core.fleet.Lease;
import dev.laneway.core.store.JournalEntry;
import dev.laneway.core.testing.Await;
import dev.laneway.core.testing.LogCapture;
import dev.laneway.store.Fixtures;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Session leases with fencing tokens (docs/architecture.md §7.1), two instances of one fleet against
 * one real Redis, each with its own manual clock (an instance's beat runs only when its clock is
 * advanced, so an instance whose clock stands still is paused). Lease expiry is Redis's own.
 */
class FleetLeaseTest {

    private static final SessionKey SESSION = SessionKey.of("telegram:dm:u1");

    private final RedisServer server = RedisServer.shared();
    private final FleetMembers fleet = FleetMembers.on(server);

    @AfterEach
    void closeAll() throws Exception {
        fleet.close();
    }

    private FleetMembers.Member instance(RedisServer on, FleetTiming timing) {
        return fleet.join(on, timing);
    }

    private FleetMembers.Member instance(FleetTiming timing) {
        return fleet.join(timing);
    }

    @Test
    void aSessionsLease_isHeldByOneInstanceAtATime_andEveryNewLeaseHasAHigherToken() {
        FleetMembers.Member a = instance(FleetTiming.DEFAULTS);
        FleetMembers.Member b = instance(FleetTiming.DEFAULTS);

        Lease first = a.member().leases().tryAcquire(SESSION, lost -> { }).orElseThrow();
        assertTrue(first.fenced());
        assertEquals(Optional.empty(), b.member().leases().tryAcquire(SESSION, lost -> { }), "A holds it");
        assertEquals(Optional.of(a.member().id()), b.member().leaseHolder(SESSION));
        assertTrue(b.member().leases().tryAcquire(SessionKey.of("telegram:dm:u2"), lost -> { }).isPresent(),
                "another session is free");

        a.member().leases().release(first);
        Lease second = b.member().leases().tryAcquire(SESSION, lost -> { }).orElseThrow();
        assertTrue(second.token() > first.token(), first + " then " + second);
        assertEquals(Optional.of(b.member().id()), a.member().leaseHolder(SESSION));
    }

    @Test
    void aPausedInstanceWhoseLeaseExpired_cannotRecordAnAnswer_andHearsOfTheLossWhenItWakes() {
        FleetTiming shortLived = FleetTiming.of(Duration.ofMillis(300));
        FleetMembers.Member a = instance(shortLived);
        FleetMembers.Member b = instance(shortLived);
        JournalEntry message = Fixtures.entry(1, SESSION.value(), "m1");
        a.store().append(message).join();
        List<Lease> lostByA = new CopyOnWriteArrayList<>();
        Lease aLease = a.member().leases().tryAcquire(SESSION, lostByA::add).orElseThrow();

        // A is paused (its clock stands still: no renewal); Redis expires its lease; B takes the session
        Lease bLease = Await.value("B takes the session once A's lease expired in Redis",
                () -> b.member().leases().tryAcquire(SESSION, lost -> { }).orElse(null));
        assertTrue(bLease.token() > aLease.token());

        try (LogCapture log = LogCapture.of(RedisStore.class)) {
            a.store().settled(message.seq(), true, aLease); // A wakes and records its answer: refused
            a.store().flush();
            assertTrue(log.lines().stream().anyMatch(line -> line.mentions("no longer holds the lease")),
                    log.lines().toString());
        }
        assertEquals(List.of(1L), b.store().pending().stream().map(JournalEntry::seq).toList(),
                "the message stays pending for B");
        try (Jedis redis = server.client()) {
            assertEquals(null, redis.zscore(a.store().keys().answered(), message.messageKey()), "no answered record");
        }
        assertTrue(a.store().seen(message.messageKey()), "still pending: a redelivery is a duplicate");

        a.clock().advance(shortLived.renewEvery()); // A's beat: Redis has B's token now
        assertEquals(List.of(aLease), lostByA);

        b.store().settled(message.seq(), true, bLease); // the holder records its answer
        b.store().flush();
        assertEquals(List.of(), a.store().pending());
        try (Jedis redis = server.client()) {
            assertTrue(redis.zscore(a.store().keys().answered(), message.messageKey()) != null, "answered once");
        }
    }

    @Test
    void aFencedSettle_ofALeaseReleasedAndTakenByNobody_isRefusedToo_whileAnUnfencedOneIsWritten() {
        FleetMembers.Member a = instance(FleetTiming.DEFAULTS);
        a.store().append(Fixtures.entry(1, SESSION.value(), "m1")).join();
        a.store().append(Fixtures.entry(2, SESSION.value(), "m2")).join();
        Lease lease = a.member().leases().tryAcquire(SESSION, lost -> { }).orElseThrow();
        a.member().leases().release(lease);

        a.store().settled(1, false, lease); // an aborted run's end after the lease was gone: kept for the next holder
        a.store().settled(2, true, new Lease(SESSION, 0)); // token 0: one instance, no fence
        a.store().flush();
        assertEquals(List.of(1L), a.store().pending().stream().map(JournalEntry::seq).toList());
    }

    @Test
    void theBeat_renewsAHeldLease_soNoOtherInstanceTakesIt() {
        FleetTiming timing = new FleetTiming(Duration.ofSeconds(30), Duration.ofSeconds(10));
        FleetMembers.Member a = instance(timing);
        FleetMembers.Member b = instance(timing);
        List<Lease> lost = new CopyOnWriteArrayList<>();
        a.member().leases().tryAcquire(SESSION, lost::add).orElseThrow();
        String leaseKey = a.store().keys().lease(SESSION.value());
        try (Jedis redis = server.client()) {
            redis.pexpire(leaseKey, 2_000); // as if the lease were about to run out
            a.clock().advance(timing.renewEvery());
            assertTrue(redis.pttl(leaseKey) > 20_000, "renewed to the ttl: " + redis.pttl(leaseKey));
        }
        assertEquals(Optional.empty(), b.member().leases().tryAcquire(SESSION, l -> { }));
        assertEquals(List.of(), lost);
        assertEquals(1, a.member().leasesHeld());
    }

    @Test
    void aLeaseThatCannotBeRenewedForAWholeTtl_isLost_once() {
        try (RedisServer own = RedisServer.start()) {
            FleetTiming timing = new FleetTiming(Duration.ofSeconds(30), Duration.ofSeconds(10));
            FleetMembers.Member a = instance(own, timing);
            List<Lease> lost = new CopyOnWriteArrayList<>();
            Lease lease = a.member().leases().tryAcquire(SESSION, lost::add).orElseThrow();

            own.stop();
            try (LogCapture log = LogCapture.of(RedisFleetMember.class)) {
                a.clock().advance(timing.renewEvery().multipliedBy(2)); // two beats fail: 20 s unconfirmed
                assertEquals(List.of(), lost, "not yet a whole ttl");
                a.clock().advance(timing.renewEvery()); // 30 s: Redis may have expired it
                assertEquals(List.of(lease), lost);
                a.clock().advance(timing.renewEvery());
                assertEquals(List.of(lease), lost, "told once");
                assertEquals(1, log.lines().stream().filter(line -> line.mentions("could not renew")).count(),
                        log.lines().toString());
            }
            assertEquals(0, a.member().leasesHeld());
            assertFalse(a.store().reachable(), "readiness: the store cannot reach Redis");
            own.restart();
            a.clock().advance(timing.renewEvery());
            assertTrue(a.store().reachable(), "the next beat reached Redis again");
            a.member().close();
        }
    }

    @Test
    void eachInstance_hasAHeartbeatKeyWithTheTtl_andLeavingGivesItsLeasesBackAtOnce() {
        FleetTiming timing = new FleetTiming(Duration.ofSeconds(30), Duration.ofSeconds(10));
        FleetMembers.Member a = instance(timing);
        FleetMembers.Member b = instance(timing);
        assertFalse(a.member().id().equals(b.member().id()));
        assertEquals(List.of(a.member().id(), b.member().id()).stream().sorted().toList(), b.member().instances());
        try (Jedis redis = server.client()) {
            long ttl = redis.pttl(a.store().keys().instance(a.member().id()));
            assertTrue(ttl > 20_000 && ttl <= 30_000, "heartbeat ttl " + ttl);
        }
        a.member().leases().tryAcquire(SESSION, l -> { }).orElseThrow();

        a.member().close(); // a rolling restart: SIGTERM hands the lease over without waiting for the ttl
        assertEquals(List.of(b.member().id()), b.member().instances());
        assertTrue(b.member().leases().tryAcquire(SESSION, l -> { }).isPresent());
    }

    @Test
    void leaving_writesTheEndsItQueued_beforeGivingItsLeasesBack() throws Exception {
        FleetMembers.Member a = instance(FleetTiming.DEFAULTS);
        JournalEntry message = Fixtures.entry(a.store().nextSequence(), SESSION.value(), "m-leave");
        a.store().append(message).join();
        Lease lease = a.member().leases().tryAcquire(SESSION, l -> { }).orElseThrow();
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        a.store().holdWriter(release); // the answered record waits in the writer's queue, as at a shutdown
        a.store().settled(message.seq(), true, lease);

        Thread leaving = new Thread(a.member()::close, "leaving");
        leaving.start();
        Await.until("the member leaves, or waits for its writes", () -> !leaving.isAlive()
                || leaving.getState() == Thread.State.TIMED_WAITING || leaving.getState() == Thread.State.WAITING);
        release.countDown();
        leaving.join(Await.DEFAULT.toMillis());
        a.store().flush();

        try (Jedis redis = server.client()) {
            assertFalse(redis.hexists(a.store().keys().journal(), Long.toString(message.seq())),
                    "answered under the lease it still held: not left pending to be answered again");
        }
    }

    @Test
    void leaving_keepsALeaseWhoseEndIsKeptForARetry_soTheRetriedEndIsWrittenUnderIt() throws Exception {
        try (RedisServer own = RedisServer.start()) {
            FleetMembers.Member a = instance(own, new FleetTiming(Duration.ofSeconds(15), Duration.ofMillis(300)));
            JournalEntry message = Fixtures.entry(a.store().nextSequence(), SESSION.value(), "m-kept");
            a.store().append(message).join();
            Lease lease = a.member().leases().tryAcquire(SESSION, l -> { }).orElseThrow();
            java.util.concurrent.CompletableFuture<Void> end;
            try (Jedis redis = own.client()) {
                redis.configSet("maxmemory-policy", "noeviction");
                redis.configSet("maxmemory", "1"); // Redis refuses the answered record: the writer keeps it
                end = a.store().settled(message.seq(), true, lease);
                a.store().flush();
                assertFalse(end.isDone(), "kept for a retry, not written");
                redis.configSet("maxmemory", "0"); // Redis takes writes again, before the retry is due
            }

            a.member().close(); // waits its bound for the kept record, then leaves

            try (Jedis redis = own.client()) {
                assertEquals(Long.toString(lease.token()), redis.hget(a.store().keys().lease(SESSION.value()), "token"),
                        "the lease is left to expire, not given back while its record is unwritten");
                a.clock().advance(Duration.ofSeconds(1)); // the retry is due
                a.store().flush(); // wakes the writer
                end.get(Await.DEFAULT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
                assertFalse(redis.hexists(a.store().keys().journal(), Long.toString(message.seq())),
                        "the answered record was written under the lease: the message does not run again");
            }
        }
    }
}
