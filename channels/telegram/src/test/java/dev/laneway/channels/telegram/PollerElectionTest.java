package dev.laneway.channels.telegram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.SessionKey;
import dev.laneway.core.fleet.Lease;
import dev.laneway.core.fleet.SessionLeases;
import dev.laneway.core.testing.Await;
import dev.laneway.core.testing.LogCapture;
import dev.laneway.core.testing.ManualTime;
import dev.laneway.store.StoreOptions;
import dev.laneway.store.redis.FleetTiming;
import dev.laneway.store.redis.RedisFleetMember;
import dev.laneway.store.redis.RedisServer;
import dev.laneway.store.redis.RedisStore;
import dev.laneway.store.redis.RedisTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Exactly one poller per bot token across a fleet (docs/behaviour.md §17, "Ingress"): two gateway
 * instances in one JVM (each a real gateway, telegrambots channel and fleet membership) against one
 * throwaway redis-server and one fake Bot API. The fake counts the {@code getUpdates} calls open at
 * once: two pollers would make it 2. A poll an instance cancelled as it stopped is over when its
 * connection closes, which the fake learns from the relay in front of it (the server alone would
 * hold it until its wait for updates ends, overlapping the next poller's). Lease expiry is Redis's own clock, so the fleet's
 * ttl is short here (1.5 s) and the standby checks every 100 ms.
 */
class PollerElectionTest {

    private static final FleetTiming TIMING = FleetTiming.of(Duration.ofMillis(1500));
    private static final Duration CHECK_EVERY = Duration.ofMillis(100);

    private final List<AutoCloseable> open = new ArrayList<>();
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private RedisServer redis;

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
        executor.shutdownNow();
        if (redis != null) {
            redis.close();
        }
    }

    /** One instance's fleet membership, beating on its own running clock (closing it stops the beats: a death). */
    private record Member(ManualTime clock, RedisFleetMember member) { }

    private Member join() {
        ManualTime clock = ManualTime.running();
        RedisStore store = RedisStore.open(RedisTarget.of(redis.url(), "support"), StoreOptions.defaults());
        open.add(store);
        RedisFleetMember member = RedisFleetMember.join(store, TIMING, clock, clock, executor);
        open.add(member);
        open.add(clock);
        return new Member(clock, member);
    }

    private Rig instance(FakeBotApi api, SessionLeases leases) throws Exception {
        Rig rig = Rig.with().api(api).agent(new EchoAgent())
                .fleet(time -> new TelegramChannel.PollerFleet(leases, time, executor, CHECK_EVERY)).start();
        open.add(rig);
        return rig;
    }

    @Test
    void oneInstancePolls_andSigtermHandsPollingToTheOtherAtOnce() throws Exception {
        redis = RedisServer.start();
        try (FakeBotApi api = FakeBotApi.startWatchingClients()) {
            Member a = join();
            Member b = join();
            Rig first = instance(api, a.member().leases());
            Rig second = instance(api, b.member().leases());

            assertTrue(first.channel.pollingNow(), "the first to start holds the poller lease");
            assertFalse(second.channel.pollingNow(), "the second stands by");
            assertTrue(second.channel.connected(), "a standby is healthy");
            api.dm(Tg.ANN, "to the poller");
            Await.until("the poller's answer", () -> api.sentTo(Tg.ANN.id()).size() == 1);
            assertEquals(1, first.journal.lastSequence());
            assertEquals(0, second.journal.lastSequence());

            first.channel.stopReceiving();      // SIGTERM: the gateway's first step at shutdown
            Await.until("the standby to poll", second.channel::pollingNow);
            api.dm(Tg.BOB, "to the new poller");
            Await.until("the new poller's answer", () -> api.sentTo(Tg.BOB.id()).size() == 1);
            assertEquals(1, second.journal.lastSequence());
            assertEquals(1, api.mostPollsOpen(), "never two getUpdates at one moment");
        }
    }

    @Test
    void aPollerThatDies_isReplacedOnceItsLeaseExpires_andTheTokenNeverReachesRedis() throws Exception {
        redis = RedisServer.start();
        try (FakeBotApi api = FakeBotApi.startWatchingClients()) {
            Member a = join();
            Member b = join();
            Rig first = instance(api, new DiesWithoutReleasing(a.member().leases()));
            Rig second = instance(api, b.member().leases());
            assertTrue(first.channel.pollingNow());
            SessionKey lease = PollerElection.keyFor(FakeBotApi.TOKEN);
            assertEquals(Optional.of(a.member().id()), b.member().leaseHolder(lease));
            try (Jedis jedis = redis.client()) {
                for (String key : jedis.keys("*")) {
                    assertFalse(key.contains(FakeBotApi.TOKEN) || key.contains(FakeBotApi.TOKEN.split(":")[1]), key);
                }
            }

            a.clock().close();                  // kill -9: no more heartbeats...
            first.channel.stopReceiving();      // ...no more polls, and no release (DiesWithoutReleasing)
            assertFalse(second.channel.pollingNow(), "the dead poller's lease has not expired yet");

            Await.until("the standby to poll once the lease expired", second.channel::pollingNow);
            assertEquals(Optional.of(b.member().id()), b.member().leaseHolder(lease));
            api.dm(Tg.ANN, "after the takeover");
            Await.until("the answer", () -> api.sentTo(Tg.ANN.id()).size() == 1);
            assertEquals(1, second.journal.lastSequence());
            assertEquals(1, api.mostPollsOpen(), "never two getUpdates at one moment");
        }
    }

    @Test
    void aPollerWhoseLeaseIsGone_stopsPolling_andOneInstancePollsAgain() throws Exception {
        redis = RedisServer.start();
        try (FakeBotApi api = FakeBotApi.startWatchingClients(); LogCapture log = LogCapture.of(PollerElection.class)) {
            Member a = join();
            Member b = join();
            Rig first = instance(api, a.member().leases());
            Rig second = instance(api, b.member().leases());
            assertTrue(first.channel.pollingNow());
            SessionKey lease = PollerElection.keyFor(FakeBotApi.TOKEN);

            try (Jedis jedis = redis.client()) {   // as if it expired while the poller was paused
                assertEquals(1, jedis.del("laneway:{support}:lease:" + lease.value()));
            }
            Await.until("the poller to notice the loss at its next beat", () -> log.warnings().stream()
                    .anyMatch(line -> line.contains("lost the poller's lease")));
            Await.until("one instance, the lease's new holder, to poll", () -> {
                Optional<String> holder = a.member().leaseHolder(lease);
                return holder.isPresent() && first.channel.pollingNow() != second.channel.pollingNow()
                        && holder.get().equals((first.channel.pollingNow() ? a : b).member().id());
            });
            api.dm(Tg.ANN, "after the loss");
            Await.until("the answer", () -> api.sentTo(Tg.ANN.id()).size() == 1);
            assertEquals(1, first.journal.lastSequence() + second.journal.lastSequence(), "taken once");
        }
    }

    /** A process killed with -9 gives nothing back: its lease stays until it expires. */
    private record DiesWithoutReleasing(SessionLeases leases) implements SessionLeases {
        @Override
        public Optional<Lease> tryAcquire(SessionKey session, LeaseLost onLost) {
            return leases.tryAcquire(session, onLost);
        }

        @Override
        public void release(Lease lease) {
        }
    }
}
