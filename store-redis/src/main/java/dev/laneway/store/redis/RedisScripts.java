package dev.laneway.store.redis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import redis.clients.jedis.Jedis;

/**
 * The Lua scripts that make each journal change one atomic step on the server. Each starts with a
 * {@code #!lua} shebang, so Redis checks for out-of-memory once, before the script runs, and refuses
 * it whole (an unflagged script would stop halfway, at its first refused write). They are called by
 * SHA ({@code EVALSHA}); {@link #load} loads them on every new connection, and a {@code NOSCRIPT}
 * (a script cache flushed under a live connection) makes the caller load them and try again.
 * Stateless and thread-safe.
 */
final class RedisScripts {

    /** Error prefix of an append whose sequence number is already in the journal. */
    static final String DUPLICATE = "LANEWAY_DUPLICATE";

    /**
     * Appends a pending entry. KEYS: journal, pending, pending-keys, seq. ARGV: seq, entry JSON,
     * message key ('' for none). Fails, changing nothing, when the sequence number is taken.
     */
    static final Script APPEND = new Script("append", """
            #!lua
            if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then
              return redis.error_reply('LANEWAY_DUPLICATE sequence number ' .. ARGV[1] .. ' is already in the journal')
            end
            redis.call('ZADD', KEYS[2], ARGV[1], ARGV[1])
            if ARGV[3] ~= '' then redis.call('HSET', KEYS[3], ARGV[3], ARGV[1]) end
            local last = tonumber(redis.call('GET', KEYS[4]) or '0')
            if tonumber(ARGV[1]) > last then redis.call('SET', KEYS[4], ARGV[1]) end
            return 1
            """);

    /**
     * Ends a pending entry. KEYS: journal, pending, pending-keys, answered. ARGV: seq, '1' when
     * answered, settled at (epoch ms). An answered message with a key goes into the answered ledger;
     * the entry and its pending key are deleted. Idempotent: an entry already gone is left alone (0).
     */
    static final Script SETTLE = new Script("settle", """
            #!lua
            local entry = redis.call('HGET', KEYS[1], ARGV[1])
            if not entry then return 0 end
            local key = cjson.decode(entry)['key']
            if type(key) ~= 'string' then key = nil end
            if key and ARGV[2] == '1' then redis.call('ZADD', KEYS[4], ARGV[3], key) end
            redis.call('HDEL', KEYS[1], ARGV[1])
            redis.call('ZREM', KEYS[2], ARGV[1])
            if key and redis.call('HGET', KEYS[3], key) == ARGV[1] then redis.call('HDEL', KEYS[3], key) end
            return 1
            """);

    /** Error prefix of a fenced settle whose lease is no longer the session's current one. */
    static final String FENCED = "LANEWAY_FENCED";

    /**
     * {@link #SETTLE}, only while the session's lease still carries the settling run's fencing token
     * (docs/architecture.md §7.1): the check and the write are one step on the server, so an
     * instance whose lease expired (a pause, a lost connection) can neither record an answer nor end
     * a message that the lease's new holder runs. KEYS: journal, pending, pending-keys, answered,
     * lease. ARGV: seq, '1' when answered, settled at (epoch ms), token. Refused (an error starting
     * with {@link #FENCED}, nothing changed) when the lease is gone or has another token.
     */
    static final Script SETTLE_FENCED = new Script("settle-fenced", """
            #!lua
            local token = redis.call('HGET', KEYS[5], 'token')
            if token ~= ARGV[4] then
              return redis.error_reply('LANEWAY_FENCED the lease ' .. KEYS[5] .. ' is no longer held with token ' .. ARGV[4])
            end
            local entry = redis.call('HGET', KEYS[1], ARGV[1])
            if not entry then return 0 end
            local key = cjson.decode(entry)['key']
            if type(key) ~= 'string' then key = nil end
            if key and ARGV[2] == '1' then redis.call('ZADD', KEYS[4], ARGV[3], key) end
            redis.call('HDEL', KEYS[1], ARGV[1])
            redis.call('ZREM', KEYS[2], ARGV[1])
            if key and redis.call('HGET', KEYS[3], key) == ARGV[1] then redis.call('HDEL', KEYS[3], key) end
            return 1
            """);

    /**
     * Whether a message key is known: pending, or answered at or after the cutoff. KEYS:
     * pending-keys, answered. ARGV: key, cutoff (epoch ms).
     */
    static final Script SEEN = new Script("seen", """
            #!lua flags=no-writes
            if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 1 end
            local at = redis.call('ZSCORE', KEYS[2], ARGV[1])
            if at and tonumber(at) >= tonumber(ARGV[2]) then return 1 end
            return 0
            """);

    /**
     * Deletes up to ARGV[2] answered records settled before ARGV[1] (epoch ms), oldest first; returns
     * how many. KEYS: answered. Allowed when Redis is out of memory: it only frees memory.
     */
    static final Script EXPIRE = new Script("expire", """
            #!lua flags=allow-oom
            local n = redis.call('ZCOUNT', KEYS[1], '-inf', '(' .. ARGV[1])
            if n > tonumber(ARGV[2]) then n = tonumber(ARGV[2]) end
            if n > 0 then redis.call('ZREMRANGEBYRANK', KEYS[1], 0, n - 1) end
            return n
            """);

    static final List<Script> ALL = List.of(APPEND, SETTLE, SETTLE_FENCED, SEEN, EXPIRE);

    /** A script and its SHA-1 (what {@code EVALSHA} names it by). */
    record Script(String name, String source, String sha) {

        Script(String name, String source) {
            this(name, source, sha1(source));
        }
    }

    private RedisScripts() {
    }

    /** Loads every script on this connection's server (idempotent). */
    static void load(Jedis jedis) {
        for (Script script : ALL) {
            String sha = jedis.scriptLoad(script.source());
            if (!script.sha().equalsIgnoreCase(sha)) {
                throw new IllegalStateException("Redis named the " + script.name() + " script " + sha + ", expected "
                        + script.sha());
            }
        }
    }

    private static String sha1(String source) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is missing from this JVM", e);
        }
    }
}
