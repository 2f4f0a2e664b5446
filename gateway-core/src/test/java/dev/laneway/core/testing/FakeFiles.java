package dev.laneway.core.testing;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/**
 * The files a fake platform server serves (docs/behaviour.md §15.1), for each channel's fake to mount
 * under its own path: each file is served whole, refused with a status, cut off (a
 * {@code Content-Length} larger than what is sent), or held without an answer until {@link #release}
 * (a download that times out). Records every request's path and headers. Thread-safe.
 */
public final class FakeFiles {

    /** How a file is answered. */
    public enum Mode { SERVE, REFUSE, TRUNCATE, HANG }

    private record File(byte[] content, String type, Mode mode, int status) {
    }

    /** One request: the path under the mount and the request's {@code Authorization} header (or null). */
    public record Request(String path, String authorization) {
    }

    private final Map<String, File> files = new ConcurrentHashMap<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final CountDownLatch released = new CountDownLatch(1);

    public FakeFiles serve(String path, byte[] content, String type) {
        files.put(path, new File(content, type, Mode.SERVE, 200));
        return this;
    }

    public FakeFiles refuse(String path, int status) {
        files.put(path, new File(new byte[0], "text/plain", Mode.REFUSE, status));
        return this;
    }

    /** Declares the whole length, sends half, and closes. */
    public FakeFiles truncate(String path, byte[] content, String type) {
        files.put(path, new File(content, type, Mode.TRUNCATE, 200));
        return this;
    }

    /** Never answers until {@link #release}. */
    public FakeFiles hang(String path) {
        files.put(path, new File(new byte[0], "text/plain", Mode.HANG, 200));
        return this;
    }

    /** Ends every held request (call when the test ends). */
    public void release() {
        released.countDown();
    }

    public List<Request> requests() {
        return List.copyOf(requests);
    }

    /** Answers {@code exchange} for {@code path}; an unknown path gets 404. */
    public void handle(HttpExchange exchange, String path) throws IOException {
        requests.add(new Request(path, exchange.getRequestHeaders().getFirst("Authorization")));
        File file = files.get(path);
        if (file == null) {
            exchange.sendResponseHeaders(404, -1);
            return;
        }
        switch (file.mode()) {
            case SERVE -> {
                exchange.getResponseHeaders().set("Content-Type", file.type());
                exchange.sendResponseHeaders(200, file.content().length == 0 ? -1 : file.content().length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(file.content());
                }
            }
            case REFUSE -> exchange.sendResponseHeaders(file.status(), -1);
            case TRUNCATE -> {
                exchange.getResponseHeaders().set("Content-Type", file.type());
                exchange.sendResponseHeaders(200, file.content().length);
                OutputStream out = exchange.getResponseBody();
                out.write(file.content(), 0, file.content().length / 2);
                out.flush();
                exchange.getHttpContext().getServer(); // the connection is closed under the client below
                exchange.close();
            }
            case HANG -> {
                try {
                    released.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                exchange.sendResponseHeaders(503, -1);
            }
        }
    }
}
