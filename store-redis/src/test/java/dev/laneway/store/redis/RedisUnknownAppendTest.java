package dev.laneway.store.redis;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.testing.LogCapture;
import dev.laneway.core.testing.ManualTime;
import dev.laneway.store.Fixtures;
import dev.laneway.store.StoreException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * An append whose connection is lost after it was sent (docs/behaviour.md §9.7): the writer asks Redis
 * on a new connection whether it landed ({@code HEXISTS}), and accepts it when it did, refuses it
 * when it did not. A proxy cuts the writer's connection exactly around its {@code EXEC}, so both
 * outcomes are made on purpose, not by timing.
 */
class RedisUnknownAppendTest {

    @Test
    void anAppendWhoseReplyWasLost_butWhichLanded_isAccepted() throws Exception {
        ManualTime clock = Fixtures.clock();
        try (RedisServer server = RedisServer.start(); CutProxy proxy = new CutProxy(server.port());
             LogCapture log = LogCapture.of(RedisWriter.class);
             RedisStore store = RedisStore.open(RedisTarget.of(proxy.url(), "support"), Fixtures.options(clock));
             Jedis redis = server.client()) {
            store.append(Fixtures.entry(1)).join();

            proxy.arm(CutProxy.Cut.AFTER_REPLY);
            store.append(Fixtures.entry(2)).join(); // Redis executed it; the writer never heard its reply

            assertTrue(proxy.awaitCut(5_000), "the connection was cut");
            assertTrue(redis.hexists("laneway:{support}:journal", "2"));
            assertTrue(log.lines().stream().anyMatch(line -> line.mentions("the reply to the append of message 2 was"
                    + " lost with the connection; Redis has it, so it is accepted")), log.lines().toString());
            store.append(Fixtures.entry(3)).join(); // and the writer goes on, on its new connection
            assertTrue(store.pendingOf(dev.laneway.core.SessionKey.of("telegram:dm:u1")).size() == 3);
        }
    }

    @Test
    void anAppendCutOffBeforeRedisRanIt_isRefused() throws Exception {
        ManualTime clock = Fixtures.clock();
        try (RedisServer server = RedisServer.start(); CutProxy proxy = new CutProxy(server.port());
             LogCapture log = LogCapture.of(RedisWriter.class);
             RedisStore store = RedisStore.open(RedisTarget.of(proxy.url(), "support"), Fixtures.options(clock));
             Jedis redis = server.client()) {
            proxy.arm(CutProxy.Cut.BEFORE);
            CompletionException e = assertThrows(CompletionException.class, () -> store.append(Fixtures.entry(1)).join());
            assertTrue(e.getCause() instanceof StoreException, e.toString());
            assertFalse(redis.hexists("laneway:{support}:journal", "1"));
            assertTrue(log.lines().stream().anyMatch(line -> line.mentions("the append of message 1 was cut off with"
                    + " the connection and Redis does not have it; the message is refused")), log.lines().toString());
            store.append(Fixtures.entry(2)).join();
            assertTrue(redis.hexists("laneway:{support}:journal", "2"));
        }
    }
}
