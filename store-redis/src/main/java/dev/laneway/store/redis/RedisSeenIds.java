package dev.laneway.store.redis;

import dev.laneway.core.channel.SeenIds;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import redis.clients.jedis.params.SetParams;

/**
 * Platform ids seen by the whole fleet (docs/behaviour.md §17, "Ingress"; docs/decisions.md D184):
 * {@code seen:<kind>:<id>} is claimed by one script ({@link FleetScripts#CLAIM_SEEN}), so of several
 * instances handed the same Telegram update or Slack event exactly one gets {@link Claim#NEW} and
 * hands it over. The claim names its instance ({@code c:<instance id>}) and lasts {@link #CLAIM} at
 * most; {@link #taken} (once the gateway has journaled the message) replaces it with {@code 1} for
 * the whole ttl. Only {@code 1} is a repeat: a claim whose instance still beats is
 * {@link Claim#PENDING} (the message may not be journaled yet; Telegram's webhook answers 503 so it
 * comes again), and a claim whose instance's heartbeat key is gone (killed, or stopped) is taken
 * over at once ({@link #remove} deletes only this instance's own claim), so the redelivery of an update whose instance died mid-hand-over is handed over
 * rather than skipped (a message that was journaled after all is dropped by the gateway's own
 * dedupe). One round trip for each call; a Redis that cannot be reached throws
 * {@link dev.laneway.store.StoreException} (naming the URL), and the channel refuses the delivery so
 * the platform sends it again, rather than guess.
 *
 * <p>Concurrency: no state of its own; Redis decides between instances (the claim is one script),
 * the store's pool between threads.
 */
public final class RedisSeenIds implements SeenIds {

    /** How long an id is claimed before its hand-over is confirmed (longer than any hand-over's bound). */
    static final Duration CLAIM = Duration.ofMinutes(2);

    private final RedisStore store;
    private final String instance;
    private final String kind;
    private final long ttlMillis;

    private RedisSeenIds(RedisStore store, String instance, String kind, Duration ttl) {
        this.store = Objects.requireNonNull(store, "store");
        this.instance = Objects.requireNonNull(instance, "instance");
        this.kind = Objects.requireNonNull(kind, "kind");
        if (!ttl.isPositive()) {
            throw new IllegalArgumentException("ttl must be positive, got " + ttl);
        }
        this.ttlMillis = ttl.toMillis();
    }

    /**
     * The fleet's seen ids on {@code store}, claimed for {@code instance} (the fleet member's id,
     * whose heartbeat tells the others whether its claims are alive); {@code max} does not apply
     * (Redis expires them by ttl).
     */
    public static SeenIds.Source on(RedisStore store, String instance) {
        if (instance == null || instance.isBlank()) {
            throw new IllegalArgumentException("the fleet instance id claiming seen ids must not be blank");
        }
        return (kind, ttl, max) -> new RedisSeenIds(store, instance, kind, ttl);
    }

    @Override
    public boolean add(String id) {
        return claim(id) == Claim.NEW;
    }

    @Override
    public Claim claim(String id) {
        String key = store.keys().seen(kind, id);
        long claim = Math.min(ttlMillis, CLAIM.toMillis());
        Object found = store.query(jedis -> RedisStore.evalScript(jedis, FleetScripts.CLAIM_SEEN, List.of(key),
                List.of(instance, Long.toString(claim), store.keys().prefix())));
        String result = found instanceof byte[] bytes ? new String(bytes, java.nio.charset.StandardCharsets.UTF_8)
                : String.valueOf(found);
        return switch (result) {
            case "new" -> Claim.NEW;
            case "seen" -> Claim.SEEN;
            case "pending" -> Claim.PENDING;
            default -> throw new IllegalStateException("claim-seen script answered " + result + " for " + key);
        };
    }

    @Override
    public void taken(String id) {
        String key = store.keys().seen(kind, id);
        store.query(jedis -> jedis.set(key, "1", SetParams.setParams().px(ttlMillis)));
    }

    @Override
    public boolean remove(String id) {
        String key = store.keys().seen(kind, id);
        Object deleted = store.query(jedis -> RedisStore.evalScript(jedis, FleetScripts.FORGET_SEEN, List.of(key),
                List.of(instance)));
        return Long.valueOf(1).equals(deleted);
    }
}
