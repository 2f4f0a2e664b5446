package dev.laneway.store.redis;

import dev.laneway.core.channel.SeenIds;
import java.time.Duration;
import java.util.Objects;
import redis.clients.jedis.params.SetParams;

/**
 * Platform ids seen by the whole fleet (docs/behaviour.md §17, "Ingress"): {@code seen:<kind>:<id>}
 * is set with {@code SET NX PX}, so of several instances handed the same Telegram update or Slack
 * event exactly one gets {@code true} and hands it over. The first mark is a claim of
 * {@link #CLAIM} at most; {@link #taken} (once the gateway has the message) keeps it for the whole
 * ttl, so the redelivery of an id whose instance died before handing it over is taken by another
 * once the claim expires. One round trip for each; a Redis that cannot
 * be reached throws {@link dev.laneway.store.StoreException} (naming the URL), and the channel
 * refuses the delivery so the platform sends it again, rather than guess.
 *
 * <p>Concurrency: no state of its own; Redis decides between instances, the store's pool between
 * threads.
 */
public final class RedisSeenIds implements SeenIds {

    /** How long an id is claimed before its hand-over is confirmed (longer than any hand-over's bound). */
    static final Duration CLAIM = Duration.ofMinutes(2);

    private final RedisStore store;
    private final String kind;
    private final long ttlMillis;

    private RedisSeenIds(RedisStore store, String kind, Duration ttl) {
        this.store = Objects.requireNonNull(store, "store");
        this.kind = Objects.requireNonNull(kind, "kind");
        if (!ttl.isPositive()) {
            throw new IllegalArgumentException("ttl must be positive, got " + ttl);
        }
        this.ttlMillis = ttl.toMillis();
    }

    /** The fleet's seen ids on {@code store}; {@code max} does not apply (Redis expires them by ttl). */
    public static SeenIds.Source on(RedisStore store) {
        return (kind, ttl, max) -> new RedisSeenIds(store, kind, ttl);
    }

    @Override
    public boolean add(String id) {
        String key = store.keys().seen(kind, id);
        long claim = Math.min(ttlMillis, CLAIM.toMillis());
        return "OK".equals(store.query(jedis -> jedis.set(key, "1", SetParams.setParams().nx().px(claim))));
    }

    @Override
    public void taken(String id) {
        String key = store.keys().seen(kind, id);
        store.query(jedis -> jedis.set(key, "1", SetParams.setParams().px(ttlMillis)));
    }

    @Override
    public boolean remove(String id) {
        String key = store.keys().seen(kind, id);
        return store.query(jedis -> jedis.del(key)) > 0;
    }
}
