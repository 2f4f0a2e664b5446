package dev.laneway.store.redis;

import java.util.Map;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * What a Redis server does to keep what it acknowledged, read once at open with {@code CONFIG GET}
 * for the log (docs/behaviour.md §9.7): the append-only file and its fsync policy, snapshots. A
 * server that refuses {@code CONFIG} (a managed Redis, an ACL) is reported as unknown.
 *
 * @param known       whether CONFIG GET answered
 * @param appendOnly  {@code appendonly yes}
 * @param appendFsync {@code always}, {@code everysec} or {@code no}
 * @param save        the snapshot points ({@code save}), empty when none
 */
record Persistence(boolean known, boolean appendOnly, String appendFsync, String save) {

    static Persistence of(Jedis jedis) {
        try {
            Map<String, String> config = jedis.configGet("appendonly", "appendfsync", "save");
            return new Persistence(true, "yes".equalsIgnoreCase(config.getOrDefault("appendonly", "no")),
                    config.getOrDefault("appendfsync", "?"), config.getOrDefault("save", "").trim());
        } catch (JedisException e) {
            return new Persistence(false, false, "?", "");
        }
    }

    /** False only when the server is known to keep nothing on disk. */
    boolean persists() {
        return !known || appendOnly || !save.isEmpty();
    }

    String describe() {
        if (!known) {
            return "unknown (CONFIG GET refused)";
        }
        if (appendOnly) {
            return "appendonly yes, appendfsync " + appendFsync + (appendFsync.equals("always")
                    ? " (every acknowledged write is on disk)" : appendFsync.equals("everysec")
                    ? " (up to 1 s of acknowledged writes may be lost if the Redis machine fails)"
                    : " (the OS decides when writes reach the disk)");
        }
        return save.isEmpty() ? "none" : "snapshots only (save " + save + "): writes since the last snapshot are lost"
                + " if Redis stops";
    }
}
