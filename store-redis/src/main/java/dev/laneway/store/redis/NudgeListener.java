package dev.laneway.store.redis;

import dev.laneway.core.SessionKey;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.params.XReadGroupParams;
import redis.clients.jedis.resps.StreamEntry;

/**
 * Reads this instance's nudge stream ({@code nudges:<id>}, docs/architecture.md §7.1) with a
 * consumer group, as the seed's workers read their queue: {@code XREADGROUP ... BLOCK} on a
 * connection of its own, each entry handed to the handler and then acknowledged and deleted
 * ({@code XACK} + {@code XDEL}). A nudge is only a hint (the journal holds the messages, and the
 * engine's sweep finds what a lost nudge would have said), so it is acknowledged once handed over.
 * An entry with {@code command=stop} is another instance's {@code /stop} of a session held here
 * (docs/behaviour.md §17), handed to the stop requests with the list its answer goes to.
 *
 * <p>Threads: one platform daemon thread, {@code laneway-fleet-nudges}, owns the connection; the
 * handler is called on it and must not block. {@code closed} (volatile) stops it within one block
 * interval.
 */
final class NudgeListener implements AutoCloseable {

    static final String GROUP = "laneway";
    private static final Logger log = LoggerFactory.getLogger(NudgeListener.class);
    private static final int BLOCK_MILLIS = 1_000;
    private static final Duration RECONNECT_AFTER = Duration.ofSeconds(1);

    private final RedisStore store;
    private final String stream;
    private final String consumer;
    private final Consumer<SessionKey> handler;
    private final StopRequests stops;
    private final Thread thread;

    /** Another instance's {@code /stop} of a session held here. Must not block. */
    interface StopRequests {
        void requested(SessionKey session);
    }
    private volatile boolean closed;

    NudgeListener(RedisStore store, String stream, String consumer, Consumer<SessionKey> handler, StopRequests stops) {
        this.store = store;
        this.stream = stream;
        this.consumer = consumer;
        this.handler = handler;
        this.stops = stops;
        this.thread = Thread.ofPlatform().daemon().name("laneway-fleet-nudges").unstarted(this::run);
    }

    void start() {
        thread.start();
    }

    private void run() {
        boolean failing = false;
        while (!closed) {
            try (Jedis jedis = store.dedicatedConnection()) {
                createGroup(jedis);
                if (failing) {
                    failing = false;
                    log.info("fleet: reading nudges from {} again", stream);
                }
                while (!closed) {
                    readOnce(jedis);
                }
            } catch (JedisException | dev.laneway.store.StoreException e) {
                if (closed) {
                    return;
                }
                if (!failing) {
                    failing = true;
                    log.warn("fleet: could not read nudges from {} ({}); retrying every {} ms (the sweep still finds"
                            + " waiting messages)", stream, e.getMessage(), RECONNECT_AFTER.toMillis());
                }
                pause();
            }
        }
    }

    private void createGroup(Jedis jedis) {
        try {
            jedis.xgroupCreate(stream, GROUP, new StreamEntryID(0, 0), true);
        } catch (JedisDataException e) {
            if (e.getMessage() == null || !e.getMessage().startsWith("BUSYGROUP")) {
                throw e;
            }
        }
    }

    private void readOnce(Jedis jedis) {
        List<Map.Entry<String, List<StreamEntry>>> read = jedis.xreadGroup(GROUP, consumer,
                XReadGroupParams.xReadGroupParams().count(100).block(BLOCK_MILLIS),
                Map.of(stream, StreamEntryID.XREADGROUP_UNDELIVERED_ENTRY));
        if (read == null) {
            return;
        }
        for (Map.Entry<String, List<StreamEntry>> forStream : read) {
            for (StreamEntry entry : forStream.getValue()) {
                String session = entry.getFields().get("session");
                if (session != null && !session.isBlank()) {
                    try {
                        if ("stop".equals(entry.getFields().get("command"))) {
                            stops.requested(SessionKey.of(session));
                        } else {
                            handler.accept(SessionKey.of(session));
                        }
                    } catch (RuntimeException e) {
                        log.warn("fleet: the nudge handler threw", e);
                    }
                }
                jedis.xack(stream, GROUP, entry.getID());
                jedis.xdel(stream, entry.getID());
            }
        }
    }

    private void pause() {
        try {
            Thread.sleep(RECONNECT_AFTER.toMillis()); // a real thread's backoff between reconnects, not a test
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closed = true;
        }
    }

    /** Stops reading (within one block interval) and waits for the thread. */
    @Override
    public void close() {
        closed = true;
        try {
            thread.join(Duration.ofMillis(BLOCK_MILLIS * 3L));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
