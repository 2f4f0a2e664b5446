package dev.laneway.channels.slack;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.java_websocket.WebSocket;
import org.java_websocket.framing.CloseFrame;
import org.java_websocket.handshake.ClientHandshake;
import org.java_websocket.server.WebSocketServer;

/**
 * Slack's Socket Mode side on an {@code org.java_websocket} server at 127.0.0.1: says hello on
 * every new connection, records acknowledgements, and delivers envelopes on the newest connection.
 * Like Slack, it holds envelopes while no connection is open and delivers them once a client
 * reconnects, and after a {@code disconnect} it closes the old connection once the new one is up.
 *
 * <p>Concurrency: {@code lock} guards {@code current}, {@code held} and {@code draining}; the
 * server's threads and the test thread both go through it.
 */
final class FakeSocketMode extends WebSocketServer {

    private final CountDownLatch started = new CountDownLatch(1);
    private final ReentrantLock lock = new ReentrantLock();
    private final List<String> acks = new CopyOnWriteArrayList<>();
    private final AtomicInteger opened = new AtomicInteger();
    private final AtomicInteger tickets = new AtomicInteger();
    private WebSocket current;                                   // guarded by lock
    private final List<String> held = new ArrayList<>();         // guarded by lock
    private final List<WebSocket> draining = new ArrayList<>();  // guarded by lock

    FakeSocketMode() {
        super(new InetSocketAddress("127.0.0.1", 0));
        setReuseAddr(true);
    }

    void startAndWait() throws InterruptedException {
        start();
        if (!started.await(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("fake Socket Mode server did not start");
        }
    }

    /** A fresh URL per {@code apps.connections.open}, as Slack hands out tickets. */
    String nextUrl() {
        return "ws://127.0.0.1:" + getPort() + "/link/?ticket=t" + tickets.incrementAndGet();
    }

    /** Connections opened so far. */
    int connectionsOpened() {
        return opened.get();
    }

    /** Connections open right now. */
    int openConnections() {
        return getConnections().size();
    }

    List<String> acks() {
        return List.copyOf(acks);
    }

    /** Delivers an envelope on the open connection, or holds it until a client connects. */
    void deliver(String envelope) {
        lock.lock();
        try {
            if (current != null && current.isOpen()) {
                current.send(envelope);
            } else {
                held.add(envelope);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Asks the client to reconnect, as Slack does before it rotates a connection. */
    void sendDisconnect() {
        lock.lock();
        try {
            WebSocket old = current;
            current = null;
            draining.add(old);
            old.send("{\"type\":\"disconnect\",\"reason\":\"refresh_requested\",\"debug_info\":{\"host\":\"fake\"}}");
        } finally {
            lock.unlock();
        }
    }

    /** Drops the open connection without a close handshake (a network failure). */
    void dropConnection() {
        lock.lock();
        try {
            WebSocket old = current;
            current = null;
            old.closeConnection(CloseFrame.ABNORMAL_CLOSE, "dropped by the fake");
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void onStart() {
        started.countDown();
    }

    @Override
    public void onOpen(WebSocket conn, ClientHandshake handshake) {
        opened.incrementAndGet();
        lock.lock();
        try {
            conn.send("{\"type\":\"hello\",\"num_connections\":1,\"connection_info\":{\"app_id\":\"A1\"},"
                    + "\"debug_info\":{\"host\":\"fake\",\"approximate_connection_time\":18060}}");
            current = conn;
            held.forEach(conn::send);
            held.clear();
            draining.forEach(old -> old.close(CloseFrame.NORMAL, "rotated"));
            draining.clear();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void onMessage(WebSocket conn, String message) {
        JsonObject json = JsonParser.parseString(message).getAsJsonObject();
        if (json.has("envelope_id")) {
            acks.add(json.get("envelope_id").getAsString());
        }
    }

    @Override
    public void onClose(WebSocket conn, int code, String reason, boolean remote) {
    }

    @Override
    public void onError(WebSocket conn, Exception ex) {
    }
}
