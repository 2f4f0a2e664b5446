package dev.laneway.store.redis;

import dev.laneway.store.StoreException;
import java.util.Map;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.SetParams;

/**
 * Claims a Redis database for a fleet, and refuses one that belongs to another fleet or to a newer
 * Laneway (docs/behaviour.md §9.7). The claim is {@link RedisKeys#FLEET_CLAIM}, set once with
 * {@code SET NX}, so two instances opening an empty database at once with different fleet names
 * cannot both win: the loser reads the winner's name and is refused. Nothing of another fleet is
 * ever written or deleted. Stateless.
 */
final class RedisFleet {

    private RedisFleet() {
    }

    /**
     * Checks the claim and the fleet's {@code meta}, creating both in an empty database. Returns true
     * when this call created the claim (a database that had no Laneway fleet until now).
     *
     * @throws StoreException naming the URL (credentials masked) and what to do, when the database
     *                        belongs to another fleet, holds a newer key layout, or holds keys of
     *                        these names that Laneway did not write
     */
    static boolean claim(Jedis jedis, RedisKeys keys, RedisTarget target, long nowMillis) {
        String owner = string(jedis, RedisKeys.FLEET_CLAIM, target);
        boolean created = false;
        if (owner == null) {
            created = "OK".equals(jedis.set(RedisKeys.FLEET_CLAIM, keys.fleet(), SetParams.setParams().nx()));
            owner = string(jedis, RedisKeys.FLEET_CLAIM, target);
        }
        if (!keys.fleet().equals(owner)) {
            throw new StoreException("The Redis at " + target.redactedUrl() + " belongs to the Laneway fleet \"" + owner
                    + "\" (key " + RedisKeys.FLEET_CLAIM + "), not to \"" + keys.fleet() + "\" (gateway.store.fleet)."
                    + " Point gateway.store.url at another Redis or database number (for example "
                    + "redis://host:6379/1), or set gateway.store.fleet to \"" + owner + "\" if this instance is"
                    + " part of that fleet. Nothing was written.");
        }
        Map<String, String> meta;
        try {
            meta = jedis.hgetAll(keys.meta());
        } catch (JedisDataException e) {
            throw foreign(target, keys.meta(), "it is not a hash (" + e.getMessage() + ")");
        }
        if (meta.isEmpty()) {
            jedis.hset(keys.meta(), Map.of("schema", Integer.toString(RedisKeys.SCHEMA), "fleet", keys.fleet(),
                    "created", Long.toString(nowMillis)));
            return created;
        }
        int schema;
        try {
            schema = Integer.parseInt(meta.getOrDefault("schema", ""));
        } catch (NumberFormatException e) {
            throw foreign(target, keys.meta(), "its schema field is \"" + meta.get("schema") + "\"");
        }
        if (schema > RedisKeys.SCHEMA) {
            throw new StoreException("The fleet \"" + keys.fleet() + "\" in the Redis at " + target.redactedUrl()
                    + " has key layout version " + schema + ", but this Laneway knows versions up to "
                    + RedisKeys.SCHEMA + ": it was written by a newer Laneway. Run that newer version on every"
                    + " instance of the fleet. Nothing was written.");
        }
        if (!keys.fleet().equals(meta.get("fleet"))) {
            throw foreign(target, keys.meta(), "its fleet field is \"" + meta.get("fleet") + "\"");
        }
        return created;
    }

    /**
     * The fleet's key layout version, or null when the database has no Laneway fleet yet; writes
     * nothing. Throws as {@link #claim} for a database of another fleet or a newer layout.
     */
    static Integer inspect(Jedis jedis, RedisKeys keys, RedisTarget target) {
        String owner = string(jedis, RedisKeys.FLEET_CLAIM, target);
        if (owner == null) {
            return null;
        }
        if (!keys.fleet().equals(owner)) {
            throw new StoreException("The Redis at " + target.redactedUrl() + " belongs to the Laneway fleet \"" + owner
                    + "\" (key " + RedisKeys.FLEET_CLAIM + "), not to \"" + keys.fleet() + "\" (gateway.store.fleet)."
                    + " Point gateway.store.url at another Redis or database number, or set gateway.store.fleet to \""
                    + owner + "\" if this instance is part of that fleet.");
        }
        String schema;
        try {
            schema = jedis.hget(keys.meta(), "schema");
        } catch (JedisDataException e) {
            throw foreign(target, keys.meta(), "it is not a hash (" + e.getMessage() + ")");
        }
        try {
            int version = schema == null ? RedisKeys.SCHEMA : Integer.parseInt(schema);
            if (version > RedisKeys.SCHEMA) {
                throw new StoreException("The fleet \"" + keys.fleet() + "\" in the Redis at " + target.redactedUrl()
                        + " has key layout version " + version + ", but this Laneway knows versions up to "
                        + RedisKeys.SCHEMA + ": it was written by a newer Laneway.");
            }
            return version;
        } catch (NumberFormatException e) {
            throw foreign(target, keys.meta(), "its schema field is \"" + schema + "\"");
        }
    }

    private static String string(Jedis jedis, String key, RedisTarget target) {
        try {
            return jedis.get(key);
        } catch (JedisDataException e) {
            throw foreign(target, key, "it is not a string (" + e.getMessage() + ")");
        }
    }

    private static StoreException foreign(RedisTarget target, String key, String why) {
        return new StoreException("The Redis at " + target.redactedUrl() + " holds a key " + key + " that Laneway did"
                + " not write (" + why + "). Point gateway.store.url at another Redis or database number, or remove"
                + " that key. Nothing was written.");
    }
}
