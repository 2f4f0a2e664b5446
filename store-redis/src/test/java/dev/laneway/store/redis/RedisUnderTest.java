package dev.laneway.store.redis;

import dev.laneway.core.SessionKey;
import dev.laneway.core.store.JournalEntry;
import dev.laneway.store.DurableStore;
import dev.laneway.store.StoreOptions;
import dev.laneway.store.StoreUnderTest;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * The Redis store for the contract suite: a real {@code redis-server} (by default the JVM's shared
 * one, emptied for each test), looked at with a connection of its own beside the store.
 */
final class RedisUnderTest implements StoreUnderTest {

    static final String FLEET = "contract";

    private final RedisServer server;
    private final RedisKeys keys = new RedisKeys(FLEET);

    RedisUnderTest() {
        this(RedisServer.shared());
    }

    RedisUnderTest(RedisServer server) {
        this.server = server;
        server.flushAll();
    }

    RedisTarget target() {
        return RedisTarget.of(server.url(), FLEET);
    }

    RedisKeys keys() {
        return keys;
    }

    @Override
    public DurableStore open(StoreOptions options) {
        return RedisStore.open(target(), options);
    }

    @Override
    public void holdWriter(DurableStore store, CountDownLatch release) {
        ((RedisStore) store).holdWriter(release);
    }

    @Override
    public String name() {
        return server.url();
    }

    @Override
    public long knownKeyCount(DurableStore store) {
        try (Jedis jedis = server.client()) {
            return jedis.hlen(keys.pendingKeys()) + jedis.zcard(keys.answered());
        }
    }

    @Override
    public OptionalLong answeredAt(JournalEntry entry) {
        if (entry.messageKey() == null) {
            return OptionalLong.empty();
        }
        try (Jedis jedis = server.client()) {
            Double at = jedis.zscore(keys.answered(), entry.messageKey());
            return at == null ? OptionalLong.empty() : OptionalLong.of(at.longValue());
        }
    }

    @Override
    public boolean hasRecord(JournalEntry entry) {
        try (Jedis jedis = server.client()) {
            return jedis.hexists(keys.journal(), Long.toString(entry.seq()))
                    || entry.messageKey() != null && jedis.zscore(keys.answered(), entry.messageKey()) != null;
        }
    }

    @Override
    public long journalRecordCount() {
        try (Jedis jedis = server.client()) {
            return pending(jedis) + jedis.zcard(keys.answered());
        }
    }

    @Override
    public long pendingRecordCount() {
        try (Jedis jedis = server.client()) {
            return pending(jedis);
        }
    }

    /** The pending count, checking that the journal, its order and its keys agree. */
    private long pending(Jedis jedis) {
        long entries = jedis.hlen(keys.journal());
        long ordered = jedis.zcard(keys.pending());
        if (entries != ordered) {
            throw new AssertionError("journal holds " + entries + " entries but pending orders " + ordered);
        }
        if (jedis.hlen(keys.pendingKeys()) > entries) {
            throw new AssertionError("more pending keys than pending entries");
        }
        return entries;
    }

    @Override
    public long historyCount(SessionKey session) {
        try (Jedis jedis = server.client()) {
            return jedis.llen(keys.history(session.value()));
        }
    }

    @Override
    public long totalHistoryCount() {
        try (Jedis jedis = server.client()) {
            long total = 0;
            String cursor = ScanParams.SCAN_POINTER_START;
            ScanParams match = new ScanParams().match(keys.prefix().replace("{", "\\{").replace("}", "\\}") + "history:*")
                    .count(1000);
            do {
                ScanResult<String> page = jedis.scan(cursor, match);
                for (String key : page.getResult()) {
                    total += jedis.llen(key);
                }
                cursor = page.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
            return total;
        }
    }

    @Override
    public boolean fireRecorded(String jobId) {
        try (Jedis jedis = server.client()) {
            return jedis.hexists(keys.fires(), jobId);
        }
    }

    /** Redis out of memory: {@code maxmemory 1} refuses every script that may write (noeviction). */
    @Override
    public void refuseWrites(boolean refuse) {
        try (Jedis jedis = server.client()) {
            jedis.configSet("maxmemory-policy", "noeviction");
            jedis.configSet("maxmemory", refuse ? "1" : "0");
        }
    }

    @Override
    public Class<?> writerClass() {
        return RedisWriter.class;
    }
}
