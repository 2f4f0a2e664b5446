package dev.laneway.store.redis;

import java.util.List;

/**
 * The Lua scripts of the fleet's coordination: session leases with fencing tokens and fleet-wide
 * permits (docs/architecture.md §7.1). Each is one atomic step on the server, and every expiry is
 * measured by Redis's own clock ({@code PEXPIRE}, {@code TIME}), so instances whose clocks differ
 * agree on when a lease or permit ran out. Called by SHA with a fallback to the source (a server
 * that has not seen a script yet). Stateless.
 */
final class FleetScripts {

    /**
     * Takes a session's lease. KEYS: lease, fence. ARGV: instance id, ttl (ms). When another instance
     * holds it: {0, holder}. Else a new fencing token (INCR of the fence counter, so tokens only
     * rise across the fleet), the lease set to this instance with that token and the ttl: {token, id}.
     */
    static final RedisScripts.Script ACQUIRE_LEASE = new RedisScripts.Script("acquire-lease", """
            #!lua
            local holder = redis.call('HGET', KEYS[1], 'instance')
            if holder and holder ~= ARGV[1] then return {0, holder} end
            local token = redis.call('INCR', KEYS[2])
            redis.call('HSET', KEYS[1], 'instance', ARGV[1], 'token', token)
            redis.call('PEXPIRE', KEYS[1], ARGV[2])
            return {token, ARGV[1]}
            """);

    /**
     * Renews leases this instance holds. KEYS: the leases. ARGV: ttl (ms), then each lease's token
     * in KEYS' order. Returns 1 for each lease renewed, 0 for one that is gone or has another token
     * (lost: never re-taken here).
     */
    static final RedisScripts.Script RENEW_LEASES = new RedisScripts.Script("renew-leases", """
            #!lua
            local result = {}
            for i, key in ipairs(KEYS) do
              if redis.call('HGET', key, 'token') == ARGV[i + 1] then
                redis.call('PEXPIRE', key, ARGV[1])
                result[i] = 1
              else
                result[i] = 0
              end
            end
            return result
            """);

    /** Gives a lease back if it still has this token. KEYS: lease. ARGV: token. 1 when deleted. */
    static final RedisScripts.Script RELEASE_LEASE = new RedisScripts.Script("release-lease", """
            #!lua
            if redis.call('HGET', KEYS[1], 'token') == ARGV[1] then
              redis.call('DEL', KEYS[1])
              return 1
            end
            return 0
            """);

    /**
     * Takes one fleet-wide permit. KEYS: permits, refused. ARGV: member ("instance/permit"), cap,
     * ttl (ms), instance, how long a refusal is remembered (ms). Expired permits (scored before
     * Redis's now) are removed first, so a dead instance's permits come back; then the permit is
     * added scored now + ttl when fewer than the cap are held. A refusal is remembered in the
     * refused hash (instance -&gt; until when), so an instance above its fair share knows another
     * wants a permit (docs/decisions.md D228). Returns 1 when taken, 0 when the cap is reached.
     */
    static final RedisScripts.Script ACQUIRE_PERMIT = new RedisScripts.Script("acquire-permit", """
            #!lua
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
            if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 1 end
            if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
              redis.call('HSET', KEYS[2], ARGV[4], now + tonumber(ARGV[5]))
              redis.call('PEXPIRE', KEYS[2], ARGV[5])
              return 0
            end
            redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
            return 1
            """);

    /**
     * Renews permits this instance holds. KEYS: permits. ARGV: ttl (ms), then the members. Returns 1
     * for each permit renewed, 0 for one that expired meanwhile (lost).
     */
    static final RedisScripts.Script RENEW_PERMITS = new RedisScripts.Script("renew-permits", """
            #!lua
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            local result = {}
            for i = 2, #ARGV do
              local score = redis.call('ZSCORE', KEYS[1], ARGV[i])
              if score and tonumber(score) > now then
                redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[i])
                result[i - 1] = 1
              else
                redis.call('ZREM', KEYS[1], ARGV[i])
                result[i - 1] = 0
              end
            end
            return result
            """);

    /**
     * Publishes an instance's demand for a cap and answers everyone's (docs/decisions.md D228).
     * KEYS: demand, permits, refused. ARGV: instance, demand, ttl (ms). Sets the instance's field to
     * "demand:expiry" (deleted at demand 0), drops expired fields and expired permits, and returns a
     * flat list of instance, demand, permits held, refused lately (1 or 0) for each instance whose
     * demand is current. The
     * split itself is done by the caller (the core's FairShares), so it is one rule everywhere.
     */
    static final RedisScripts.Script PUBLISH_DEMAND = new RedisScripts.Script("publish-demand", """
            #!lua
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            local ttl = tonumber(ARGV[3])
            if tonumber(ARGV[2]) > 0 then
              redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. ':' .. (now + ttl))
            else
              redis.call('HDEL', KEYS[1], ARGV[1])
            end
            redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
            local held = {}
            for _, m in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
              local owner = string.match(m, '^(.*)/[^/]*$')
              if owner then held[owner] = (held[owner] or 0) + 1 end
            end
            local out = {}
            local all = redis.call('HGETALL', KEYS[1])
            for i = 1, #all, 2 do
              local d, exp = string.match(all[i + 1], '^(%d+):(%d+)$')
              if d == nil or tonumber(exp) <= now then
                redis.call('HDEL', KEYS[1], all[i])
              else
                table.insert(out, all[i])
                table.insert(out, tonumber(d))
                table.insert(out, held[all[i]] or 0)
                local refusedUntil = redis.call('HGET', KEYS[3], all[i])
                table.insert(out, (refusedUntil and tonumber(refusedUntil) > now) and 1 or 0)
              end
            end
            if #out > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
            return out
            """);

    /** Counts the unexpired permits. KEYS: permits. */
    static final RedisScripts.Script COUNT_PERMITS = new RedisScripts.Script("count-permits", """
            #!lua flags=no-writes
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            return redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf')
            """);

    /**
     * Claims a platform id (docs/behaviour.md §17, "Ingress"; docs/decisions.md D184). KEYS: the
     * seen key. ARGV: this instance's id, the claim's ttl (ms), the fleet's key prefix. The key holds
     * {@code c:<instance>} while that instance hands the id over and {@code 1} once it has
     * ({@link RedisSeenIds#taken}). Returns {@code new} (claimed now: free, or claimed by an instance
     * whose {@code instance:<id>} key is gone, i.e. dead or stopped), {@code seen} (handed over) or
     * {@code pending} (claimed by a live instance, this one included, not handed over yet).
     */
    static final RedisScripts.Script CLAIM_SEEN = new RedisScripts.Script("claim-seen", """
            #!lua
            local v = redis.call('GET', KEYS[1])
            if v and string.sub(v, 1, 2) ~= 'c:' then return 'seen' end
            if v then
              local claimant = string.sub(v, 3)
              if claimant == ARGV[1] or redis.call('EXISTS', ARGV[3] .. 'instance:' .. claimant) == 1 then
                return 'pending'
              end
            end
            redis.call('SET', KEYS[1], 'c:' .. ARGV[1], 'PX', ARGV[2])
            return 'new'
            """);

    /**
     * Gives back this instance's claim of a platform id (its hand-over failed). KEYS: the seen key.
     * ARGV: this instance's id. Deletes the key only while it is still this instance's claim, so a
     * claim another instance took over, or its record that the id was handed over, stays. 1 when deleted.
     */
    static final RedisScripts.Script FORGET_SEEN = new RedisScripts.Script("forget-seen", """
            #!lua
            if redis.call('GET', KEYS[1]) == 'c:' .. ARGV[1] then
              redis.call('DEL', KEYS[1])
              return 1
            end
            return 0
            """);

    /**
     * The heartbeat. KEYS: instance, instances. ARGV: id, ttl (ms), started (epoch ms), host, the
     * session leases held (for {@code laneway fleet} and {@code /status}). Sets the instance's hash
     * with the ttl and its score in the instances set to Redis's now, and drops instances whose last
     * heartbeat is older than 10 ttls from the set.
     */
    static final RedisScripts.Script HEARTBEAT = new RedisScripts.Script("heartbeat", """
            #!lua
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            redis.call('HSET', KEYS[1], 'started', ARGV[3], 'host', ARGV[4], 'leases', ARGV[5])
            redis.call('PEXPIRE', KEYS[1], ARGV[2])
            redis.call('ZADD', KEYS[2], now, ARGV[1])
            redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - 10 * tonumber(ARGV[2]))
            return now
            """);

    /**
     * Tells a session's lease holder that its messages wait: XADD of the session to the holder's nudge
     * stream (capped near 10,000 entries). KEYS: lease. ARGV: the fleet's key prefix, session.
     * Returns the holder, or false when nobody holds the lease.
     */
    static final RedisScripts.Script NUDGE = new RedisScripts.Script("nudge", """
            #!lua
            local holder = redis.call('HGET', KEYS[1], 'instance')
            if not holder then return false end
            redis.call('XADD', ARGV[1] .. 'nudges:' .. holder, 'MAXLEN', '~', '10000', '*', 'session', ARGV[2])
            return holder
            """);

    /**
     * A {@code /stop} (docs/behaviour.md §17, decision D233). KEYS: the session's lease, the shared
     * sequence, the session's stop mark. ARGV: the key prefix, the session, the asking instance, the
     * mark's ttl in ms. Raises the stop mark to the highest sequence number handed out so far (never
     * lowers it), and adds a stop request to the holder's nudge stream when another instance holds
     * the lease. Returns {holder or '', mark}.
     */
    static final RedisScripts.Script STOP_REQUEST = new RedisScripts.Script("stop-request", """
            #!lua
            local mark = tonumber(redis.call('GET', KEYS[2]) or '0')
            local old = tonumber(redis.call('GET', KEYS[3]) or '0')
            if old > mark then mark = old end
            redis.call('SET', KEYS[3], tostring(mark), 'PX', ARGV[4])
            local holder = redis.call('HGET', KEYS[1], 'instance')
            if not holder or holder == ARGV[3] then return {'', mark} end
            redis.call('XADD', ARGV[1] .. 'nudges:' .. holder, 'MAXLEN', '~', '10000', '*', 'session', ARGV[2],
              'command', 'stop')
            return {holder, mark}
            """);

    /**
     * Sessions with pending messages whose lease nobody holds, oldest first. KEYS: pending-sessions.
     * ARGV: the fleet's key prefix, how many sessions to look at (from the oldest), how many to return.
     */
    static final RedisScripts.Script UNLEASED = new RedisScripts.Script("unleased", """
            #!lua flags=no-writes
            local result = {}
            for _, session in ipairs(redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[2]) - 1)) do
              if redis.call('EXISTS', ARGV[1] .. 'lease:' .. session) == 0 then
                result[#result + 1] = session
                if #result >= tonumber(ARGV[3]) then break end
              end
            end
            return result
            """);

    /**
     * Puts pending entries into their sessions' indexes, for entries appended before the index existed
     * (a Redis store written by an older Laneway, docs/architecture.md §7.1). KEYS: journal. ARGV: the
     * key prefix, then seqs from {@code pending}. An entry already settled (gone from the journal) is
     * skipped; a session's score in {@code pending-sessions} only ever moves down to its oldest seq.
     * Idempotent. Returns how many seqs were newly indexed.
     */
    static final RedisScripts.Script INDEX_PENDING = new RedisScripts.Script("index-pending", """
            #!lua
            local added = 0
            for i = 2, #ARGV do
              local entry = redis.call('HGET', KEYS[1], ARGV[i])
              if entry then
                local session = cjson.decode(entry)['session']
                if type(session) == 'string' then
                  added = added + redis.call('ZADD', ARGV[1] .. 'session-pending:' .. session, 'NX', ARGV[i], ARGV[i])
                  local current = redis.call('ZSCORE', ARGV[1] .. 'pending-sessions', session)
                  if not current or tonumber(ARGV[i]) < tonumber(current) then
                    redis.call('ZADD', ARGV[1] .. 'pending-sessions', ARGV[i], session)
                  end
                end
              end
            end
            return added
            """);

    static final List<RedisScripts.Script> ALL = List.of(NUDGE, STOP_REQUEST, UNLEASED, ACQUIRE_LEASE, RENEW_LEASES, RELEASE_LEASE,
            ACQUIRE_PERMIT, RENEW_PERMITS, PUBLISH_DEMAND, COUNT_PERMITS, HEARTBEAT, INDEX_PENDING, CLAIM_SEEN,
            FORGET_SEEN);

    private FleetScripts() {
    }
}
