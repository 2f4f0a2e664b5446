package dev.laneway.store.redis;

import dev.laneway.core.testing.ManualTime;
import dev.laneway.store.Fixtures;
import java.util.ArrayList;
import java.util.List;

/**
 * The fleet tests' instances on a throwaway redis-server: each its own store and membership on its
 * own manual clock, the beat run on the caller's thread. Made per test (the server emptied first)
 * and closed by the test's {@code @AfterEach}, newest first. Used from the test's thread only.
 */
final class FleetMembers implements AutoCloseable {

    /** One instance: its store and its membership, on its own manual clock. */
    record Member(ManualTime clock, RedisStore store, RedisFleetMember member) { }

    private final RedisServer server;
    private final List<AutoCloseable> open = new ArrayList<>();

    private FleetMembers(RedisServer server) {
        this.server = server;
    }

    /** Members on {@code server}, emptied for a new test. */
    static FleetMembers on(RedisServer server) {
        server.flushAll();
        return new FleetMembers(server);
    }

    Member join(FleetTiming timing) {
        return join(server, timing);
    }

    /** A member on another server (a second fleet, or one stopped and started again). */
    Member join(RedisServer on, FleetTiming timing) {
        ManualTime clock = Fixtures.clock();
        RedisStore store = RedisStore.open(RedisTarget.of(on.url(), "support"), Fixtures.options(clock));
        open.add(store);
        RedisFleetMember member = RedisFleetMember.join(store, timing, clock, clock, Runnable::run);
        open.add(member);
        return new Member(clock, store, member);
    }

    @Override
    public void close() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }
}
