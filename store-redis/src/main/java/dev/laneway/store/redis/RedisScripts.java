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
     * Appends a pending entry. KEYS: journal, pending, pending-keys, seq, the session's pending
     * (session-pending:&lt;session&gt;), pending-sessions. ARGV: seq, entry JSON, message key ('' for
     * none), session. Fails, changing nothing, when the sequence number is taken. The session's
     * index (its pending seqs; the sessions with pending messages, scored by their oldest) is what a
     * fleet's lease holder and takeover read (docs/architecture.md §7.1).
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
            redis.call('ZADD', KEYS[5], ARGV[1], ARGV[1])
            redis.call('ZADD', KEYS[6], 'NX', ARGV[1], ARGV[4])
            return 1
            """);

    /** The shared body of {@link #SETTLE} and {@link #SETTLE_FENCED}: KEYS 1-4 and ARGV 1-3 as there, ARGV[4] the key prefix. */
    private static final String SETTLE_BODY = """
            local entry = redis.call('HGET', KEYS[1], ARGV[1])
            if not entry then return 0 end
            local decoded = cjson.decode(entry)
            local key = decoded['key']
            if type(key) ~= 'string' then key = nil end
            if key and ARGV[2] == '1' then redis.call('ZADD', KEYS[4], ARGV[3], key) end
            redis.call('HDEL', KEYS[1], ARGV[1])
            redis.call('DEL', ARGV[4] .. 'live:' .. ARGV[1])
            redis.call('ZREM', KEYS[2], ARGV[1])
            if key and redis.call('HGET', KEYS[3], key) == ARGV[1] then redis.call('HDEL', KEYS[3], key) end
            local session = decoded['session']
            if type(session) == 'string' then
              local own = ARGV[4] .. 'session-pending:' .. session
              redis.call('ZREM', own, ARGV[1])
              local oldest = redis.call('ZRANGE', own, 0, 0)
              if #oldest == 0 then
                redis.call('ZREM', ARGV[4] .. 'pending-sessions', session)
              else
                redis.call('ZADD', ARGV[4] .. 'pending-sessions', 'XX', oldest[1], session)
              end
            end
            return 1
            """;

    /**
     * Ends a pending entry. KEYS: journal, pending, pending-keys, answered. ARGV: seq, '1' when
     * answered, settled at (epoch ms), the fleet's key prefix. An answered message with a key goes
     * into the answered ledger; the entry, its pending key and its place in its session's index are
     * deleted, and so are its live messages (the index keys are named from the stored entry's session: they share the fleet's hash
     * tag, so the script may touch them). Idempotent: an entry already gone is left alone (0).
     */
    static final Script SETTLE = new Script("settle", "#!lua\n" + SETTLE_BODY);

    /** Error prefix of a fenced settle whose lease is no longer the session's current one. */
    static final String FENCED = "LANEWAY_FENCED";

    /**
     * {@link #SETTLE}, only while the session's lease still carries the settling run's fencing token
     * (docs/architecture.md §7.1): the check and the write are one step on the server, so an
     * instance whose lease expired (a pause, a lost connection) can neither record an answer nor end
     * a message that the lease's new holder runs. KEYS: journal, pending, pending-keys, answered,
     * lease. ARGV: seq, '1' when answered, settled at (epoch ms), the key prefix, token. Refused (an
     * error starting with {@link #FENCED}, nothing changed) when the lease is gone or has another token.
     */
    static final Script SETTLE_FENCED = new Script("settle-fenced", """
            #!lua
            if redis.call('HGET', KEYS[5], 'token') ~= ARGV[5] then
              return redis.error_reply('LANEWAY_FENCED the lease ' .. KEYS[5] .. ' is no longer held with token ' .. ARGV[5])
            end
            """ + SETTLE_BODY);

    /**
     * Records a live message of a pending entry's streamed answer (docs/behaviour.md §16.3), replacing
     * what was recorded under its id; nothing when the entry is no longer pending. KEYS: journal, the
     * entry's live hash. ARGV: seq, platform message id, live message JSON.
     */
    static final Script LIVE_SHOWN = new Script("live-shown", """
            #!lua
            if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
            redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
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

    static final List<Script> ALL = List.of(APPEND, SETTLE, SETTLE_FENCED, LIVE_SHOWN, SEEN, EXPIRE);

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
