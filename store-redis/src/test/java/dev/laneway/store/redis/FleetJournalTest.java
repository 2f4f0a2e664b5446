package dev.laneway.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.SessionKey;
import dev.laneway.core.fleet.Lease;
import dev.laneway.core.store.JournalEntry;
import dev.laneway.core.testing.Await;
import dev.laneway.store.Fixtures;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * What the engine of a fleet reads from the shared journal (docs/architecture.md §7.1): a session's
 * pending messages by its index, the sessions whose messages nobody holds a lease for, sequence
 * numbers shared by the fleet's instances, and nudges to a session's lease holder.
 */
class FleetJournalTest {

    private static final SessionKey ADA = SessionKey.of("telegram:dm:ada");
    private static final SessionKey BOB = SessionKey.of("telegram:dm:bob");

    private final RedisServer server = RedisServer.shared();
    private final FleetMembers fleet = FleetMembers.on(server);

    @AfterEach
    void closeAll() throws Exception {
        fleet.close();
    }

    private FleetMembers.Member instance() {
        return fleet.join(FleetTiming.DEFAULTS);
    }

    private static JournalEntry entry(long seq, SessionKey session) {
        return Fixtures.entry(seq, session.value(), "m" + seq);
    }

    @Test
    void aSessionsPendingMessages_areReadByItsIndex_inOrder_andLeaveItWhenTheyEnd() {
        FleetMembers.Member a = instance();
        a.store().append(entry(1, ADA)).join();
        a.store().append(entry(2, BOB)).join();
        a.store().append(entry(3, ADA)).join();

        assertEquals(List.of(1L, 3L), a.store().pendingOf(ADA).stream().map(JournalEntry::seq).toList());
        assertEquals(List.of(ADA, BOB), a.member().unleased(10), "oldest first; nobody holds their leases");

        a.store().settled(1, true);
        a.store().settled(3, false);
        a.store().flush();
        assertEquals(List.of(), a.store().pendingOf(ADA));
        assertEquals(List.of(BOB), a.member().unleased(10));
    }

    @Test
    void aPickUpThatKnowsEveryPendingMessage_readsOnlyTheIndex_notTheEntries() {
        FleetMembers.Member a = instance();
        a.store().append(entry(1, ADA)).join();
        a.store().append(entry(2, ADA)).join();
        a.store().append(entry(3, ADA)).join();

        long before = hmgetCalls();
        assertEquals(List.of(), a.store().pendingOf(ADA, seq -> true));
        assertEquals(before, hmgetCalls(), "the sweep's pick-up of a session whose messages all run here reads no entry");

        assertEquals(List.of(3L), a.store().pendingOf(ADA, seq -> seq < 3).stream().map(JournalEntry::seq).toList());
        assertEquals(before + 1, hmgetCalls(), "one read, for the entry not known");
        assertEquals(List.of(1L, 2L, 3L), a.store().pendingOf(ADA).stream().map(JournalEntry::seq).toList());
    }

    /** HMGET calls Redis has served since it started ({@code INFO commandstats}). */
    private long hmgetCalls() {
        try (Jedis jedis = server.client()) {
            for (String line : jedis.info("commandstats").split("\r?\n")) {
                if (line.startsWith("cmdstat_hmget:calls=")) {
                    return Long.parseLong(line.substring("cmdstat_hmget:calls=".length(), line.indexOf(',')));
                }
            }
            return 0;
        }
    }

    @Test
    void pendingMessagesWrittenBeforeTheIndexExisted_areIndexedWhenAnInstanceJoins() {
        RedisStore older = RedisStore.open(RedisTarget.of(server.url(), "support"), Fixtures.options(Fixtures.clock()));
        older.append(entry(1, ADA)).join();
        older.append(entry(2, BOB)).join();
        older.append(entry(3, ADA)).join();
        older.settled(3, true);
        older.flush();
        RedisKeys keys = older.keys();
        older.close();
        try (redis.clients.jedis.Jedis redis = server.client()) { // as an older Laneway left them: no index
            redis.del(keys.sessionPending(ADA.value()), keys.sessionPending(BOB.value()), keys.pendingSessions());
        }

        FleetMembers.Member a = instance();

        assertEquals(List.of(1L), a.store().pendingOf(ADA).stream().map(JournalEntry::seq).toList(),
                "the settled entry stays out");
        assertEquals(List.of(2L), a.store().pendingOf(BOB).stream().map(JournalEntry::seq).toList());
        assertEquals(List.of(ADA, BOB), a.member().unleased(10), "a takeover finds both, oldest first");
        instance(); // a second instance joining indexes nothing twice
        a.store().settled(1, true);
        a.store().flush();
        assertEquals(List.of(BOB), a.member().unleased(10));
    }

    @Test
    void aMessageWhoseEndThisInstanceQueued_isNotPickedUpAgain_beforeRedisHasTheEnd() throws Exception {
        FleetMembers.Member a = instance();
        a.store().append(entry(1, ADA)).join();
        a.store().append(entry(2, ADA)).join();
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        a.store().holdWriter(release); // the settle below waits in the writer's queue
        a.store().settled(1, true);
        try (redis.clients.jedis.Jedis redis = server.client()) {
            assertTrue(redis.hexists(a.store().keys().journal(), "1"), "Redis still has it pending");
        }
        assertEquals(List.of(2L), a.store().pendingOf(ADA).stream().map(JournalEntry::seq).toList(),
                "but this instance ended it: a pick-up must not run it again");
        release.countDown();
        a.store().flush();
        assertEquals(List.of(2L), a.store().pendingOf(ADA).stream().map(JournalEntry::seq).toList());
    }

    @Test
    void aSessionWhoseLeaseIsHeld_isNotUnleased() {
        FleetMembers.Member a = instance();
        FleetMembers.Member b = instance();
        a.store().append(entry(1, ADA)).join();
        a.store().append(entry(2, BOB)).join();
        Lease lease = a.member().leases().tryAcquire(ADA, l -> { }).orElseThrow();
        assertEquals(List.of(BOB), b.member().unleased(10));
        a.member().leases().release(lease);
        assertEquals(List.of(ADA, BOB), b.member().unleased(10));
        assertEquals(List.of(ADA), b.member().unleased(1));
    }

    @Test
    void sequenceNumbers_areSharedByTheFleetsInstances() {
        FleetMembers.Member a = instance();
        FleetMembers.Member b = instance();
        assertTrue(a.store().sharesSequence());
        long first = a.store().nextSequence();
        long second = b.store().nextSequence();
        long third = a.store().nextSequence();
        assertTrue(first < second && second < third, first + ", " + second + ", " + third);
        a.store().append(entry(third, ADA)).join();
        b.store().append(entry(b.store().nextSequence(), ADA)).join(); // no clash with A's append
        assertEquals(2, a.store().pendingOf(ADA).size());
    }

    @Test
    void aNudge_reachesTheSessionsLeaseHolder_only() {
        FleetMembers.Member a = instance();
        FleetMembers.Member b = instance();
        List<SessionKey> heardByA = new CopyOnWriteArrayList<>();
        List<SessionKey> heardByB = new CopyOnWriteArrayList<>();
        a.member().onNudge(heardByA::add);
        b.member().onNudge(heardByB::add);
        a.member().leases().tryAcquire(ADA, l -> { }).orElseThrow();

        b.member().nudge(ADA);
        b.member().nudge(BOB); // nobody holds Bob's lease: nobody to tell
        Await.until("A hears of Ada's waiting messages", () -> heardByA.equals(List.of(ADA)));
        b.member().nudge(ADA);
        Await.until("and again", () -> heardByA.size() == 2);
        assertEquals(List.of(), heardByB);
        assertFalse(heardByA.contains(BOB));
    }
}
