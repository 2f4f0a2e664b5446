package dev.laneway.channels.discord;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import net.dv8tion.jda.api.utils.data.DataObject;
import org.java_websocket.WebSocket;
import org.java_websocket.handshake.ClientHandshake;
import org.java_websocket.server.WebSocketServer;

/**
 * A Discord gateway on 127.0.0.1 speaking plain JSON (no compression): HELLO on connect, heartbeat
 * ACKs, IDENTIFY answered with READY (whose {@code resume_gateway_url} points back here, at
 * {@code /resume}) and one GUILD_CREATE, RESUME answered with a test-chosen replay and RESUMED,
 * and dispatches or a RECONNECT (op 7) on demand. Every frame from the client is recorded.
 *
 * <p>Shards: an IDENTIFY's {@code shard: [i, n]} (none: [0, 1]) decides which guilds its READY
 * and GUILD_CREATEs carry, as Discord does: a guild is on shard {@code (id >> 22) % n}; the
 * test guild ({@link DiscordJson#GUILD_ID}) is on shard 0 of any count, the second one
 * ({@link DiscordJson#GUILD_2}) only exists with two shards or more, on shard 1 of 2.
 * {@link #dispatchToShard} sends to the connection that identified as a shard.
 *
 * <p>Concurrency: {@code lock} guards {@code seq}, {@code current} and {@code shards}, so dispatches
 * are numbered and sent in one order; recorded lists are concurrent.
 */
final class FakeDiscordGateway extends WebSocketServer {

    private final ReentrantLock lock = new ReentrantLock();
    private int seq;                                    // guarded by lock
    private WebSocket current;                          // guarded by lock
    private final java.util.Map<WebSocket, Integer> shards = new java.util.HashMap<>(); // guarded by lock
    private List<DataObject> replayOnResume = List.of(); // guarded by lock
    private volatile int refuseIdentifyWith;             // a close code, or 0 to accept IDENTIFY
    private final List<DataObject> received = new CopyOnWriteArrayList<>();
    private final List<String> paths = new CopyOnWriteArrayList<>();
    private final CountDownLatch started = new CountDownLatch(1);

    FakeDiscordGateway() {
        super(new InetSocketAddress("127.0.0.1", 0));
        setReuseAddr(true);
    }

    String url() {
        return "ws://127.0.0.1:" + getPort();
    }

    @Override
    public void onOpen(WebSocket conn, ClientHandshake handshake) {
        paths.add(handshake.getResourceDescriptor());
        lock.lock();
        try {
            current = conn;
        } finally {
            lock.unlock();
        }
        conn.send(DataObject.empty().put("op", 10).put("d", DataObject.empty().put("heartbeat_interval", 41250)).toString());
    }

    @Override
    public void onMessage(WebSocket conn, String text) {
        DataObject frame = DataObject.fromJson(text);
        received.add(frame);
        switch (frame.getInt("op")) {
            case 1 -> conn.send(DataObject.empty().put("op", 11).toString());
            case 2 -> {
                if (refuseIdentifyWith != 0) {
                    conn.close(refuseIdentifyWith, "refused by the fake gateway");
                    return;
                }
                int shard = 0;
                int total = 1;
                if (frame.getObject("d").hasKey("shard")) {
                    shard = frame.getObject("d").getArray("shard").getInt(0);
                    total = frame.getObject("d").getArray("shard").getInt(1);
                }
                lock.lock();
                try {
                    shards.put(conn, shard);
                } finally {
                    lock.unlock();
                }
                List<DataObject> guilds = DiscordJson.guildsOnShard(shard, total);
                dispatch(conn, "READY", DiscordJson.ready(url() + "/resume",
                        guilds.stream().map(guild -> guild.getString("id")).toList()));
                guilds.forEach(guild -> dispatch(conn, "GUILD_CREATE", guild));
            }
            case 6 -> {
                List<DataObject> replay;
                lock.lock();
                try {
                    replay = replayOnResume;
                } finally {
                    lock.unlock();
                }
                replay.forEach(event -> dispatch(conn, event.getString("t"), event.getObject("d")));
                dispatch(conn, "RESUMED", DataObject.empty().put("_trace", "fake"));
            }
            default -> { }
        }
    }

    /** Answers IDENTIFY by closing with this code (e.g. 4014, disallowed intents). */
    void refuseIdentifyWith(int closeCode) {
        refuseIdentifyWith = closeCode;
    }

    /** Sends a dispatch (op 0) with the next sequence number on the live connection. */
    void dispatch(String type, DataObject data) {
        lock.lock();
        try {
            if (current == null) {
                throw new IllegalStateException("no client connected");
            }
            dispatch(current, type, data);
        } finally {
            lock.unlock();
        }
    }

    /** Sends a dispatch on the live connection that identified as shard {@code shard}. */
    void dispatchToShard(int shard, String type, DataObject data) {
        lock.lock();
        try {
            WebSocket conn = shards.entrySet().stream()
                    .filter(entry -> entry.getValue() == shard && entry.getKey().isOpen())
                    .map(java.util.Map.Entry::getKey).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no client connected as shard " + shard));
            dispatch(conn, type, data);
        } finally {
            lock.unlock();
        }
    }

    /** The shards live connections identified as, in order. */
    List<Integer> liveShards() {
        lock.lock();
        try {
            return shards.entrySet().stream().filter(entry -> entry.getKey().isOpen())
                    .map(java.util.Map.Entry::getValue).sorted().toList();
        } finally {
            lock.unlock();
        }
    }

    private void dispatch(WebSocket conn, String type, DataObject data) {
        lock.lock();
        try {
            conn.send(DataObject.empty().put("op", 0).put("t", type).put("s", ++seq).put("d", data).toString());
        } finally {
            lock.unlock();
        }
    }

    /** Asks the client to reconnect (op 7); on RESUME the given events are replayed first. */
    void reconnect(List<DataObject> replay) {
        lock.lock();
        try {
            replayOnResume = List.copyOf(replay);
            current.send(DataObject.empty().put("op", 7).put("d", null).toString());
        } finally {
            lock.unlock();
        }
    }

    /** Frames from the client with this op code, in arrival order. */
    List<DataObject> received(int op) {
        return received.stream().filter(frame -> frame.getInt("op") == op).toList();
    }

    /** The request paths of every connection, in order. */
    List<String> paths() {
        return List.copyOf(paths);
    }

    @Override
    public void onClose(WebSocket conn, int code, String reason, boolean remote) {
        lock.lock();
        try {
            shards.remove(conn);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void onError(WebSocket conn, Exception ex) {
    }

    @Override
    public void onStart() {
        started.countDown();
    }

    /** Starts listening and waits until the port is bound. */
    void startAndAwait() throws InterruptedException {
        start();
        if (!started.await(20, TimeUnit.SECONDS)) {
            throw new IllegalStateException("fake gateway did not start");
        }
    }
}
