package dev.laneway.store.redis;

import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.engine.Gateway;
import dev.laneway.core.engine.GatewaySettings;
import dev.laneway.core.testing.GatewayHarness;
import dev.laneway.core.testing.ManualTime;
import dev.laneway.core.testing.ScriptedAgent;
import dev.laneway.store.Fixtures;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;

/**
 * The fleet tests' instances on a throwaway redis-server: each its own store and membership on its
 * own manual clock. A {@link #join} member's beat runs on the caller's thread; a {@link #gateway}
 * instance's beat, runs and outbox run on virtual threads of this fixture. Made per test (the shared
 * server emptied first, or none: the test starts its own with {@link #server()}) and closed by the
 * test's {@code @AfterEach}: everything it opened, newest first, then its threads. Used from the
 * test's thread only.
 */
final class FleetMembers implements AutoCloseable {

    /** The fleet every instance of these tests belongs to. */
    static final String FLEET = "support";

    /** One instance: its store and its membership, on its own manual clock. */
    record Member(ManualTime clock, RedisStore store, RedisFleetMember member) { }

    /** One instance running a gateway: its own clock ({@code harness.time}), store, membership and agent. */
    record Instance(GatewayHarness harness, RedisStore store, RedisFleetMember member) {
        ScriptedAgent agent() {
            return harness.agent;
        }

        /** A DM from the same user as every other instance's, with a platform id of its own. */
        void send(String text, String platformId) {
            harness.send(harness.message(text).platformMessageId(platformId));
        }
    }

    private final RedisServer server; // null when the test starts its own
    private final List<AutoCloseable> open = new ArrayList<>();
    private ExecutorService threads; // made for the first gateway

    private FleetMembers(RedisServer server) {
        this.server = server;
    }

    /** Members on {@code server}, emptied for a new test. */
    static FleetMembers on(RedisServer server) {
        server.flushAll();
        return new FleetMembers(server);
    }

    /** Members on servers the test starts with {@link #server()}. */
    static FleetMembers onOwnServers() {
        return new FleetMembers(null);
    }

    /** A throwaway server of the test's own, closed after everything opened after it. */
    RedisServer server() {
        return closing(RedisServer.start());
    }

    /** Closed at the end of the test, before everything opened before it. */
    <T extends AutoCloseable> T closing(T closeable) {
        open.add(closeable);
        return closeable;
    }

    /** Closes now what would else be closed at the end. */
    void closeNow(AutoCloseable closeable) throws Exception {
        open.remove(closeable);
        closeable.close();
    }

    /** The fleet's key names (every store here shares them). */
    static RedisKeys keys() {
        return new RedisKeys(FLEET);
    }

    /** A store of the fleet on {@code on}, on {@code clock}, without a membership. */
    RedisStore store(RedisServer on, ManualTime clock) {
        return closing(RedisStore.open(RedisTarget.of(on.url(), FLEET), Fixtures.options(clock)));
    }

    RedisStore store(ManualTime clock) {
        return store(server, clock);
    }

    Member join(FleetTiming timing) {
        return join(server, timing);
    }

    /** A member on another server (a second fleet, or one stopped and started again). */
    Member join(RedisServer on, FleetTiming timing) {
        ManualTime clock = Fixtures.clock();
        RedisStore store = store(on, clock);
        RedisFleetMember member = closing(RedisFleetMember.join(store, timing, clock, clock, Runnable::run));
        return new Member(clock, store, member);
    }

    Instance gateway(FleetTiming timing, UnaryOperator<GatewaySettings.Builder> settings, CommandHandler commands) {
        return gateway(server, timing, settings, commands, (builder, member) -> builder);
    }

    /**
     * An instance running a gateway on {@code on}: its executor, outbox and beat on this fixture's
     * virtual threads, its store the journal, its membership the fleet and its {@code main} permits (4)
     * fleet-wide; {@code wiring} adds to that.
     */
    Instance gateway(RedisServer on, FleetTiming timing, UnaryOperator<GatewaySettings.Builder> settings,
                     CommandHandler commands, BiFunction<Gateway.Builder, RedisFleetMember, Gateway.Builder> wiring) {
        if (threads == null) {
            threads = Executors.newVirtualThreadPerTaskExecutor();
        }
        ManualTime time = Fixtures.clock();
        RedisStore store = store(on, time);
        RedisFleetMember member = closing(RedisFleetMember.join(store, timing, time, time, threads));
        GatewayHarness harness = new GatewayHarness(settings, commands, store, time,
                builder -> wiring.apply(builder.executor(threads).outboxExecutor(threads).store(store).fleet(member)
                        .fleetMain(member.permits("main", 4).source()), member));
        return new Instance(harness, store, member);
    }

    @Override
    public void close() throws Exception {
        try {
            for (int i = open.size() - 1; i >= 0; i--) {
                open.get(i).close();
            }
        } finally {
            if (threads != null) {
                threads.shutdownNow();
            }
        }
    }
}
