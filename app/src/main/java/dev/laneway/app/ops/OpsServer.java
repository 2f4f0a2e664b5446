package dev.laneway.app.ops;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.laneway.config.GatewayConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator HTTP endpoint ({@code gateway.http}): health, readiness, Prometheus metrics, status
 * and capabilities, GET (or HEAD) only, and the operator console when one is given (its page, its
 * event stream and its admin actions: {@link OperatorConsole}, docs/behaviour.md §18). Unknown
 * paths are 404, other methods 405. Only the console's admin actions are authenticated (the admin
 * token): bound beyond loopback, the server refuses to start without a token and says at start that
 * its read-only pages are open (a WARN naming the address).
 *
 * <p>Concurrency: the JDK {@link HttpServer} hands each exchange to a virtual thread; handlers
 * share nothing but {@link OpsEndpoints}, which only reads thread-safe engine getters. {@code lock}
 * guards {@code server} and {@code executor} so that {@link #start} and {@link #stop} may race
 * (a shutdown hook against the main thread); both are idempotent, and a stopped server stays
 * stopped.
 */
public final class OpsServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(OpsServer.class);

    private final String bind;
    private final int requestedPort;
    private final Map<String, Supplier<OpsResponse>> routes;
    private final OperatorConsole console; // null: no console
    private final boolean hasToken;
    private final ReentrantLock lock = new ReentrantLock();
    private HttpServer server;        // guarded by lock; null before start and after stop
    private ExecutorService executor; // guarded by lock
    private boolean stopped;          // guarded by lock

    /** @param http {@code gateway.http}; port 0 picks a free port (see {@link #port()}) */
    public OpsServer(GatewayConfig.Http http, OpsEndpoints endpoints) {
        this(http, endpoints, null);
    }

    /** @param console the operator console served at {@code /}, or null for none */
    public OpsServer(GatewayConfig.Http http, OpsEndpoints endpoints, OperatorConsole console) {
        this.bind = http.bind();
        this.requestedPort = http.port();
        this.routes = Collections.unmodifiableMap(new LinkedHashMap<>(endpoints.routes()));
        this.console = console;
        this.hasToken = !http.adminToken().isEmpty();
    }

    /**
     * Binds and starts serving; idempotent.
     *
     * @throws UncheckedIOException when the address cannot be bound, naming the setting to change
     */
    public void start() {
        lock.lock();
        try {
            if (server != null || stopped) {
                return;
            }
            InetSocketAddress address = new InetSocketAddress(bind, requestedPort);
            if (address.isUnresolved()) {
                throw new IllegalArgumentException("gateway.http.bind: cannot resolve '" + bind + "'");
            }
            if (!address.getAddress().isLoopbackAddress() && !hasToken) {
                throw new IllegalArgumentException("gateway.http.bind is " + bind + ", not a loopback address: set"
                        + " gateway.http.adminToken, or bind 127.0.0.1");
            }
            HttpServer created = create(address);
            executor = Executors.newVirtualThreadPerTaskExecutor();
            created.setExecutor(executor);
            created.createContext("/", this::handle);
            created.start();
            server = created;
            log.info("ops endpoint listening on http://{}:{} ({})", bind, port(), String.join(" ", paths()));
            if (!address.getAddress().isLoopbackAddress()) {
                log.warn("gateway.http.bind is {}: the ops endpoint is reachable from other machines; its read-only"
                        + " pages (/status, /metrics, the console) need no authentication and list session keys with"
                        + " user ids, only the console's admin actions need the admin token; bind 127.0.0.1 unless a"
                        + " firewall or an authenticating proxy guards port {}", bind, port());
            }
        } finally {
            lock.unlock();
        }
    }

    private HttpServer create(InetSocketAddress address) {
        try {
            return HttpServer.create(address, 0);
        } catch (IOException e) {
            throw new UncheckedIOException("gateway.http: cannot listen on " + bind + ":" + requestedPort + " (" + e.getMessage()
                    + "); choose another gateway.http.port or set gateway.http.enabled: false", e);
        }
    }

    /** The bound port (the chosen one when configured as 0); -1 when not running. */
    public int port() {
        lock.lock();
        try {
            return server == null ? -1 : server.getAddress().getPort();
        } finally {
            lock.unlock();
        }
    }

    /** Stops serving at once (requests in flight are cut off); idempotent. */
    public void stop() {
        lock.lock();
        try {
            stopped = true;
            if (server == null) {
                return;
            }
            if (console != null) {
                console.close(); // ends the open event streams, so the server need not wait for them
            }
            server.stop(0);
            executor.shutdownNow();
            server = null;
            executor = null;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        stop();
    }

    private List<String> paths() {
        List<String> paths = new ArrayList<>();
        if (console != null) {
            paths.addAll(console.paths());
        }
        paths.addAll(routes.keySet());
        return paths;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            boolean consolePath = console != null && console.serves(path);
            OpsResponse response;
            if (consolePath) {
                response = consoleAnswer(exchange, path);
                if (response == null) {
                    return; // the event stream answered itself, until the console left
                }
                exchange.getResponseHeaders().set("Content-Security-Policy", OperatorConsole.CSP);
                exchange.getResponseHeaders().set("Referrer-Policy", "no-referrer");
            } else {
                response = answer(exchange.getRequestMethod(), path);
            }
            boolean head = "HEAD".equals(exchange.getRequestMethod());
            exchange.getResponseHeaders().set("Content-Type", response.contentType());
            exchange.getResponseHeaders().set("Cache-Control", "no-store");
            exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
            if (response.status() == 405) {
                exchange.getResponseHeaders().set("Allow", path.startsWith("/admin/") ? "POST"
                        : path.equals(OperatorConsole.EVENTS) ? "GET" : "GET, HEAD");
            }
            if (response.status() == 401) {
                exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer");
            }
            exchange.sendResponseHeaders(response.status(), head || response.body().length == 0 ? -1 : response.body().length);
            if (!head) {
                try (OutputStream body = exchange.getResponseBody()) {
                    body.write(response.body());
                }
            }
        }
    }

    private OpsResponse consoleAnswer(HttpExchange exchange, String path) throws IOException {
        try {
            return console.answer(exchange);
        } catch (RuntimeException e) {
            log.warn("ops endpoint {} failed", path, e);
            return OpsResponse.text(500, "internal error\n");
        }
    }

    private OpsResponse answer(String method, String path) {
        Supplier<OpsResponse> route = routes.get(path);
        if (route == null) {
            return OpsResponse.text(404, "not found: " + path + "; try " + String.join(", ", paths()) + "\n");
        }
        if (!"GET".equals(method) && !"HEAD".equals(method)) {
            return OpsResponse.text(405, "method not allowed: " + method + " (GET or HEAD)\n");
        }
        try {
            return route.get();
        } catch (RuntimeException e) {
            log.warn("ops endpoint {} failed", path, e);
            return OpsResponse.text(500, "internal error\n");
        }
    }
}
