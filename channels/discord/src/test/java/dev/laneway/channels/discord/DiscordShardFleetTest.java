package dev.laneway.channels.discord;

import static dev.laneway.channels.discord.DiscordJson.ALICE;
import static dev.laneway.channels.discord.DiscordJson.BOT_ID;
import static dev.laneway.channels.discord.DiscordJson.GUILD_2;
import static dev.laneway.channels.discord.DiscordJson.GUILD_2_CHANNEL;
import static dev.laneway.channels.discord.DiscordJson.GUILD_ID;
import static dev.laneway.channels.discord.DiscordJson.TEXT_CHANNEL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.config.ChannelsConfig;
import dev.laneway.config.Secret;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.Route;
import dev.laneway.core.SessionKey;
import dev.laneway.core.channel.InboundSink;
import dev.laneway.core.channel.Receipt;
import dev.laneway.core.fleet.Lease;
import dev.laneway.core.fleet.SessionLeases;
import dev.laneway.core.testing.Await;
import dev.laneway.core.testing.ManualTime;
import dev.laneway.store.StoreOptions;
import dev.laneway.store.redis.FleetTiming;
import dev.laneway.store.redis.RedisFleetMember;
import dev.laneway.store.redis.RedisServer;
import dev.laneway.store.redis.RedisStore;
import dev.laneway.store.redis.RedisTarget;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Discord's shards shared out across a fleet (docs/behaviour.md §17, "Ingress"): two instances in one
 * JVM (each a real JDA-backed channel and fleet membership) against one throwaway redis-server and
 * one fake Discord. Each connects one of the bot's two shards, sends to the other's servers through
 * REST alone, and takes the other's shard when it leaves (SIGTERM) or dies (its lease expires:
 * Redis's own clock, so the fleet's ttl is short here, 1.5 s, and instances check every 100 ms).
 */
class DiscordShardFleetTest {

    private static final FleetTiming TIMING = FleetTiming.of(Duration.ofMillis(1500));
    private static final Duration CHECK_EVERY = Duration.ofMillis(100);
    private static final String MENTION = "<@" + BOT_ID + "> ";

    private final List<AutoCloseable> open = new ArrayList<>();
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final FakeDiscordGateway ws = new FakeDiscordGateway();
    private FakeDiscordRest rest;
    private RedisServer redis;

    @BeforeEach
    void startFakes() throws Exception {
        ws.startAndAwait();
        rest = new FakeDiscordRest();
        redis = RedisServer.start();
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
        executor.shutdownNow();
        ws.stop(1000);
        rest.close();
        redis.close();
    }

    /** One instance: its fleet membership beating on its own running clock, and its Discord channel. */
    private record Instance(ManualTime clock, RedisFleetMember member, DiscordChannel channel,
                            List<InboundMessage> inbound) {
        List<Integer> shards() {
            return channel.shardsHere();
        }
    }

    private Instance instance(boolean releasesLeases) {
        ManualTime clock = ManualTime.running();
        RedisStore store = RedisStore.open(RedisTarget.of(redis.url(), "support"), StoreOptions.defaults());
        open.add(store);
        RedisFleetMember member = RedisFleetMember.join(store, TIMING, clock, clock, executor);
        open.add(member);
        open.add(clock);
        SessionLeases leases = releasesLeases ? member.leases() : new DiesWithoutReleasing(member.leases());
        ChannelsConfig.Discord config = new ChannelsConfig.Discord(true, new Secret(DiscordRig.TOKEN),
                URI.create(rest.baseUrl()), URI.create(ws.url()), List.of(), true).withShards(2);
        DiscordChannel channel = new DiscordChannel(config, clock, clock, new DiscordChannel.ShardFleet(leases,
                member.standing(), clock, executor, CHECK_EVERY));
        open.add(channel::stop);
        return new Instance(clock, member, channel, new CopyOnWriteArrayList<>());
    }

    private static void start(Instance instance) {
        instance.channel().start(new InboundSink() {
            @Override
            public void accept(InboundMessage message) {
                instance.inbound().add(message);
            }

            @Override
            public void rateLimited(String channel) {
            }
        });
    }

    private static Route guildRoute(String channelId) {
        return new Route(DiscordChannel.NAME, "default", channelId, null, null);
    }

    @Test
    void twoInstances_connectOneShardEach_sendToTheOthersServers_andOneTakesBothWhenTheOtherLeaves() throws Exception {
        Instance a = instance(true);
        Instance b = instance(true);
        start(a);
        start(b);
        Await.until("each instance to connect one shard", () -> a.shards().size() == 1 && b.shards().size() == 1);
        Await.until("both shards to be connected to Discord", () -> ws.liveShards().equals(List.of(0, 1))
                && a.channel().connected() && b.channel().connected());
        assertEquals(List.of(0), a.shards(), "the first to start takes the lowest shard");
        assertEquals(List.of(1), b.shards());
        List<SessionKey> leases = ShardElection.keysFor(DiscordRig.TOKEN, 2);
        assertEquals(Optional.of(a.member().id()), b.member().leaseHolder(leases.get(0)));
        assertEquals(Optional.of(b.member().id()), a.member().leaseHolder(leases.get(1)));
        try (Jedis jedis = redis.client()) {
            for (String key : jedis.keys("*")) {
                assertFalse(key.contains(DiscordRig.TOKEN), key);
            }
        }

        ws.dispatchToShard(1, "MESSAGE_CREATE", DiscordJson.message("7901", GUILD_2_CHANNEL, GUILD_2, ALICE,
                MENTION + "to shard 1", List.of(BOT_ID), null));
        Await.until("the message at shard 1's instance", () -> b.inbound().size() == 1);
        assertEquals("to shard 1", b.inbound().get(0).text());
        assertTrue(a.inbound().isEmpty());

        // the session may run on A: A answers in shard 1's server, which is not in its cache
        a.channel().send(new Route(DiscordChannel.NAME, "default", GUILD_2_CHANNEL, null, "7901"), "answered from A");
        String live = a.channel().post(guildRoute(GUILD_2_CHANNEL), "streaming from A");
        a.channel().edit(guildRoute(GUILD_2_CHANNEL), live, "streamed from A");
        a.channel().typing(guildRoute(GUILD_2_CHANNEL));
        List<FakeDiscordRest.Request> sent = rest.messagesTo(GUILD_2_CHANNEL);
        assertEquals(List.of("answered from A", "streaming from A"), sent.stream().map(FakeDiscordRest.Request::content)
                .toList());
        assertEquals("7901", sent.get(0).json().getObject("message_reference").getString("message_id"));
        assertEquals(0, sent.get(0).json().getObject("allowed_mentions").getArray("parse").length());
        assertEquals(1, rest.requests(r -> r.is("PATCH", "channels/" + GUILD_2_CHANNEL + "/messages/" + live)).size());
        assertEquals(1, rest.typingIn(GUILD_2_CHANNEL).size());
        Route received = new Route(DiscordChannel.NAME, "default", GUILD_2_CHANNEL, null, "7901");
        a.channel().react(received, Receipt.QUEUED, null);        // receipts too, by REST (D222)
        a.channel().react(received, Receipt.RUNNING, Receipt.QUEUED);
        assertEquals(List.of("+7901 👀", "-7901 👀", "+7901 ✍️"), rest.reactionsIn(GUILD_2_CHANNEL));
        b.channel().send(guildRoute(TEXT_CHANNEL), "answered from B");
        assertEquals(1, rest.messagesTo(TEXT_CHANNEL).size());

        a.channel().stopReceiving();        // SIGTERM: A's shard goes over at once, A still in the fleet
        assertEquals(List.of(), a.shards());
        Await.until("B to connect both shards", () -> b.shards().equals(List.of(0, 1)));
        Await.until("shard 0 connected again", () -> ws.liveShards().equals(List.of(0, 1)) && b.channel().connected());
        assertEquals(Optional.of(b.member().id()), a.member().leaseHolder(leases.get(0)));
        ws.dispatchToShard(0, "MESSAGE_CREATE", DiscordJson.message("7902", TEXT_CHANNEL, GUILD_ID, ALICE,
                MENTION + "to shard 0", List.of(BOT_ID), null));
        Await.until("the message at B", () -> b.inbound().size() == 2);
        a.channel().send(guildRoute(TEXT_CHANNEL), "A still sends while it drains");
        assertEquals(2, rest.messagesTo(TEXT_CHANNEL).size());
        assertEquals(List.of(0, 1), b.shards(), "B keeps the orphan while A is still live (dozens of checks)");
        assertEquals(3, ws.received(2).size(), "three IDENTIFYs in all: no shard went back and forth");
    }

    @Test
    void anInstanceThatDies_hasItsShardTakenOnceTheLeaseExpires() throws Exception {
        Instance a = instance(false);
        Instance b = instance(true);
        start(a);
        start(b);
        Await.until("each instance to connect one shard", () -> a.shards().size() == 1 && b.shards().size() == 1);
        assertEquals(List.of(0), a.shards());
        Await.until("both shards to be connected to Discord", () -> ws.liveShards().equals(List.of(0, 1))
                && a.channel().connected() && b.channel().connected());

        a.channel().stopReceiving();        // kill -9: its shard's connection gone, nothing released (DiesWithoutReleasing)...
        a.clock().close();                  // ...and no more heartbeats or renewals
        assertEquals(List.of(1), b.shards(), "the dead instance's lease has not expired yet");

        Await.until("B to take shard 0 once A's lease expired", () -> b.shards().equals(List.of(0, 1)));
        assertEquals(Optional.of(b.member().id()),
                b.member().leaseHolder(ShardElection.keysFor(DiscordRig.TOKEN, 2).get(0)));
        Await.until("shard 0 connected again", () -> ws.liveShards().equals(List.of(0, 1)) && b.channel().connected());
        ws.dispatchToShard(0, "MESSAGE_CREATE", DiscordJson.message("7911", TEXT_CHANNEL, GUILD_ID, ALICE,
                MENTION + "after the takeover", List.of(BOT_ID), null));
        Await.until("the message at B", () -> b.inbound().size() == 1);
    }

    @Test
    void aLoneInstanceTakesBothShards_andGivesOneToAnInstanceThatJoins() throws Exception {
        Instance a = instance(true);
        start(a);
        Await.until("the lone instance to connect both shards", () -> a.shards().equals(List.of(0, 1)));

        Instance b = instance(true);
        start(b);
        Await.until("the shards shared out", () -> a.shards().equals(List.of(0)) && b.shards().equals(List.of(1)));
        Await.until("both connected", () -> ws.liveShards().equals(List.of(0, 1)) && b.channel().connected());
    }

    /** A process killed with -9 gives nothing back: its leases stay until they expire. */
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
