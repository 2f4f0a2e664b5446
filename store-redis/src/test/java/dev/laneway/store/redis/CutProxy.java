package dev.laneway.store.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A TCP proxy in front of a test Redis that cuts one client's connection around its next {@code EXEC}
 * (the end of a {@code MULTI ... EXEC}), to make a write's outcome unknown to the client at a chosen
 * point: {@link Cut#BEFORE} closes the connection without sending the {@code EXEC} (Redis discards the
 * transaction), {@link Cut#AFTER_REPLY} sends it, waits for Redis's reply and closes the connection
 * without passing it on (Redis executed it; the client never hears so). Every other byte goes through
 * unchanged. Threads: one acceptor, two pumps per connection (virtual threads); {@code armed} is the
 * only shared state.
 */
final class CutProxy implements AutoCloseable {

    enum Cut { BEFORE, AFTER_REPLY }

    private static final byte[] EXEC = "\r\nEXEC\r\n".getBytes(StandardCharsets.US_ASCII);

    private final int target;
    private final ServerSocket server;
    private final AtomicReference<Cut> armed = new AtomicReference<>();
    private final CountDownLatch cut = new CountDownLatch(1);
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    CutProxy(int targetPort) throws IOException {
        this.target = targetPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(this::accept);
    }

    String url() {
        return "redis://127.0.0.1:" + server.getLocalPort();
    }

    /** The next EXEC any client sends is cut as said. */
    void arm(Cut how) {
        armed.set(how);
    }

    /** Whether a cut happened within the timeout. */
    boolean awaitCut(long millis) throws InterruptedException {
        return cut.await(millis, TimeUnit.MILLISECONDS);
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket redis = new Socket(InetAddress.getLoopbackAddress(), target);
                sockets.add(client);
                sockets.add(redis);
                Thread.ofVirtual().start(() -> toRedis(client, redis));
                Thread.ofVirtual().start(() -> pump(redis, client));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void toRedis(Socket client, Socket redis) {
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = client.getInputStream(); OutputStream out = redis.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                Cut how = contains(buffer, n, EXEC) ? armed.getAndSet(null) : null;
                if (how == Cut.BEFORE) {
                    int end = indexOf(buffer, n, EXEC) + 2; // up to, not including, the EXEC
                    out.write(buffer, 0, end);
                    out.flush();
                    closeBoth(client, redis); // Redis discards the open MULTI when its client goes
                    return;
                }
                if (how == Cut.AFTER_REPLY) {
                    cutting = client; // before Redis can answer: the pump drops the answer and signals
                }
                out.write(buffer, 0, n);
                out.flush();
                if (how == Cut.AFTER_REPLY) {
                    waitForReplyThenCut(client, redis);
                    return;
                }
            }
        } catch (IOException e) {
            closeBoth(client, redis);
        }
    }

    private volatile Socket cutting;

    private void waitForReplyThenCut(Socket client, Socket redis) {
        synchronized (this) {
            while (cutting != null) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
        closeBoth(client, redis);
    }

    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                if (cutting == to) {
                    synchronized (this) { // Redis answered the EXEC: the answer is dropped, the connection cut
                        cutting = null;
                        notifyAll();
                    }
                    return;
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            closeBoth(from, to);
        }
    }

    private void closeBoth(Socket a, Socket b) {
        quietly(a);
        quietly(b);
        cut.countDown();
    }

    private static void quietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing
        }
    }

    private static boolean contains(byte[] buffer, int length, byte[] needle) {
        return indexOf(buffer, length, needle) >= 0;
    }

    private static int indexOf(byte[] buffer, int length, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (buffer[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    @Override
    public void close() throws IOException {
        server.close();
        sockets.forEach(CutProxy::quietly);
    }
}
