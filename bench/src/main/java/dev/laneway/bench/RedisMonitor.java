package dev.laneway.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.Jedis;

/**
 * Reads a Redis server's {@code MONITOR} stream on a socket of its own and counts its round trips
 * with a {@link RoundTripCounter} (docs/architecture.md §10). {@link #mark()} returns the counts
 * once every command Redis executed before the call has been read, so phases can be told apart.
 *
 * <p>Concurrency: one reader thread feeds the counter under {@code this}'s monitor; {@link #mark()},
 * {@link #exclude} and the counts take it too.
 */
final class RedisMonitor implements AutoCloseable {

    private static final String MARK = "laneway-bench-mark-";

    private final Socket socket;
    private final Socket control;
    private final RoundTripCounter counter;
    private long lastMark; // guarded by this
    private long marksSent; // guarded by this

    RedisMonitor(int port, Map<String, String> scriptNamesBySha) throws IOException {
        this.counter = new RoundTripCounter(scriptNamesBySha);
        this.socket = new Socket("127.0.0.1", port);
        this.control = new Socket("127.0.0.1", port);
        socket.getOutputStream().write("MONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        Thread reader = new Thread(() -> read(in), "redis-monitor");
        reader.setDaemon(true);
        reader.start();
        synchronized (this) {
            counter.exclude("127.0.0.1:" + control.getLocalPort());
        }
    }

    private void read(BufferedReader in) {
        try {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.startsWith("+") && !line.equals("+OK")) {
                    take(line.substring(1));
                }
            }
        } catch (IOException e) {
            // closed
        }
    }

    private synchronized void take(String line) {
        List<String> words = counter.take(line);
        if (words.size() > 1 && words.get(0).equalsIgnoreCase("echo") && words.get(1).startsWith(MARK)) {
            lastMark = Long.parseLong(words.get(1).substring(MARK.length()));
            notifyAll();
        }
    }

    /** Commands of this connection (the measurement's own) are not counted from now on. */
    void exclude(Jedis jedis) {
        String info = jedis.clientInfo();
        for (String field : info.trim().split(" ")) {
            if (field.startsWith("addr=")) {
                synchronized (this) {
                    counter.exclude(field.substring("addr=".length()));
                }
                return;
            }
        }
        throw new IllegalStateException("CLIENT INFO gave no addr: " + info);
    }

    /** The counts once every command Redis executed before this call has been read. */
    RoundTripCounter.Counts mark() throws IOException, InterruptedException {
        long id;
        synchronized (this) {
            id = ++marksSent;
        }
        String arg = MARK + id;
        OutputStream out = control.getOutputStream();
        out.write(("*2\r\n$4\r\nECHO\r\n$" + arg.length() + "\r\n" + arg + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        control.getInputStream().readNBytes(("$" + arg.length() + "\r\n" + arg + "\r\n").length());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        synchronized (this) {
            while (lastMark < id) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new IllegalStateException("MONITOR did not show mark " + id + " within 30 s");
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            return counter.counts();
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
        control.close();
    }
}
