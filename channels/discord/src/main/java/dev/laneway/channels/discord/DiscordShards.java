package dev.laneway.channels.discord;

import dev.laneway.config.ChannelsConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import net.dv8tion.jda.api.JDA;
import net.dv8tion.jda.api.utils.SessionController;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Discord shards this instance connects (docs/behaviour.md §17, "Ingress"): one JDA client per
 * shard ({@code useSharding(i, total)}), all through one session controller, so their IDENTIFYs are
 * spaced as Discord asks and they share the bot's global rate limit. Alone an instance opens every
 * shard; in a fleet the {@code IngressElection} opens and closes the shards it holds. What a send
 * needs comes from here: a channel from the cache of any shard connected here, and {@link #rest} for
 * everything else (DMs, channels of shards held elsewhere).
 *
 * <p>Concurrency: {@code lock} guards {@code open} and {@code closed}; building and shutting a
 * client down (blocking for the token check, or up to {@code grace}) happen outside it. The REST
 * client is set once at {@link #startRestOnly} and read through a volatile field.
 */
final class DiscordShards {

    /** Builds shard {@code shard} of {@code total} through the shared session controller. */
    @FunctionalInterface
    interface ShardFactory {
        JDA build(int shard, int total, SessionController sessions);
    }

    private static final Logger log = LoggerFactory.getLogger(DiscordShards.class);

    private final int total;
    private final ShardFactory factory;
    private final SessionController sessions;
    private final Duration grace;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<Integer, JDA> open = new TreeMap<>(); // guarded by lock
    private boolean closed;                                  // guarded by lock
    private volatile JDA restOnly;                           // a fleet's REST client; null alone

    DiscordShards(int total, ShardFactory factory, SessionController sessions, Duration grace) {
        if (total < 1) {
            throw new IllegalArgumentException("channels.discord.shards must be at least 1, got " + total);
        }
        this.total = total;
        this.factory = Objects.requireNonNull(factory, "factory");
        this.sessions = Objects.requireNonNull(sessions, "sessions");
        this.grace = Objects.requireNonNull(grace, "grace");
    }

    static DiscordShards of(ChannelsConfig.Discord config, Object listener, Runnable rateLimited, Duration grace) {
        return new DiscordShards(config.shards(),
                (shard, total, sessions) -> JdaFactory.build(config, listener, rateLimited, shard, total, sessions),
                JdaFactory.sessions(config), grace);
    }

    int total() {
        return total;
    }

    SessionController sessions() {
        return sessions;
    }

    /** A fleet's REST client, logged in but never connected (JdaFactory#restOnly): sends do not depend on the shards held. */
    void startRestOnly(Function<SessionController, JDA> build) {
        restOnly = build.apply(sessions);
    }

    /** Logs shard {@code shard} in and starts connecting it (a blocking token check). */
    void open(int shard) {
        if (shard < 0 || shard >= total) {
            throw new IllegalArgumentException("shard " + shard + " is not one of the bot's " + total);
        }
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("discord channel is stopped");
            }
            if (open.containsKey(shard)) {
                return;
            }
        } finally {
            lock.unlock();
        }
        JDA client = factory.build(shard, total, sessions);
        boolean keep;
        lock.lock();
        try {
            keep = !closed && !open.containsKey(shard);
            if (keep) {
                open.put(shard, client);
            }
        } finally {
            lock.unlock();
        }
        if (!keep) {
            shutdown(client);
        } else if (total > 1) {
            log.info("discord: connecting shard [{}, {}]", shard, total);
        }
    }

    /** Disconnects shard {@code shard}: what it queued is sent first (at most the grace), then it is cut. */
    void close(int shard) {
        JDA client;
        lock.lock();
        try {
            client = open.remove(shard);
        } finally {
            lock.unlock();
        }
        if (client != null) {
            shutdown(client);
            if (total > 1) {
                log.info("discord: disconnected shard [{}, {}]", shard, total);
            }
        }
    }

    /** Closes every shard, then the REST client; idempotent. */
    void closeAll() {
        List<JDA> clients;
        lock.lock();
        try {
            closed = true;
            clients = new ArrayList<>(open.values());
            open.clear();
        } finally {
            lock.unlock();
        }
        clients.forEach(this::shutdown);
        JDA rest = restOnly;
        if (rest != null) {
            shutdown(rest);
        }
    }

    /** The shard ids connected (or connecting) here, in order. */
    List<Integer> held() {
        lock.lock();
        try {
            return List.copyOf(open.keySet());
        } finally {
            lock.unlock();
        }
    }

    /** The shards' clients here, lowest shard first. */
    List<JDA> clients() {
        lock.lock();
        try {
            return List.copyOf(open.values());
        } finally {
            lock.unlock();
        }
    }

    /** Whether every shard held here is connected (true when none is held: another instance has them). */
    boolean connected() {
        return clients().stream().allMatch(client -> client.getStatus() == JDA.Status.CONNECTED);
    }

    /** The first non-null answer of {@code lookup} over the shards' caches, or null. */
    <T> T cached(Function<JDA, T> lookup) {
        for (JDA client : clients()) {
            T found = lookup.apply(client);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /** The client for REST calls: the fleet's REST-only client, else the lowest shard's. */
    JDA rest() {
        JDA rest = restOnly;
        if (rest != null) {
            return rest;
        }
        List<JDA> clients = clients();
        if (clients.isEmpty()) {
            throw new IllegalStateException("discord channel is not connected");
        }
        return clients.get(0);
    }

    private void shutdown(JDA client) {
        client.shutdown();
        try {
            if (!client.awaitShutdown(grace)) {
                log.warn("discord: client did not stop within {} ms; forcing it", grace.toMillis());
                client.shutdownNow();
            }
        } catch (InterruptedException e) {
            client.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
