package dev.laneway.app.ops;

import com.sun.net.httpserver.HttpExchange;
import dev.laneway.agents.pool.PoolSnapshot;
import dev.laneway.core.engine.Gateway;
import dev.laneway.core.jobs.JobStatus;
import dev.laneway.core.time.Scheduler;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * The live operator console on the ops port (docs/behaviour.md §18): the page and its two assets
 * (from the jar's resources, read once), the event stream ({@code GET /events}) and the admin
 * actions ({@code POST /admin/...}, behind {@code gateway.http.adminToken}). {@link OpsServer} hands
 * it every request for one of its paths.
 *
 * <p>Concurrency: immutable after construction but for {@link ConsoleStream} (see there); safe from
 * any number of request threads.
 */
public final class OperatorConsole implements AutoCloseable {

    /** The event stream's path. */
    static final String EVENTS = "/events";
    /** The security policy of the page: its own files only, nothing inline, nothing from elsewhere. */
    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self';"
            + " img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private static final String RESOURCES = "/dev/laneway/app/ops/console/";

    private final Map<String, OpsResponse> assets = new LinkedHashMap<>();
    private final AdminToken token;
    private final AdminActions admin;
    private final ConsoleStream stream;

    /**
     * @param feed     the disposition hook, registered with the gateway's builder ({@code listener})
     * @param metrics  the metrics observer (the charts read its queue-wait timers, the pools their 429s)
     * @param jobs     the scheduled jobs' state now
     * @param controls pausing and resuming them
     * @param pools    the provider pools now
     */
    public OperatorConsole(String adminToken, Gateway gateway, DispositionFeed feed, MetricsObserver metrics,
                           Supplier<Map<String, Boolean>> channels, Supplier<List<JobStatus>> jobs, JobControls controls,
                           Supplier<List<PoolSnapshot>> pools, InstantSource clock, Scheduler scheduler,
                           Executor executor) {
        Objects.requireNonNull(gateway, "gateway");
        this.token = AdminToken.of(adminToken);
        this.admin = new AdminActions(token, gateway, controls);
        ConsoleHistory history = new ConsoleHistory(clock, feed, metrics.registry());
        this.stream = new ConsoleStream(allPoints -> ConsoleView.of(gateway, channels.get(), jobs.get(), pools.get(),
                metrics.registry(), history, clock.instant(), allPoints), feed, history, scheduler, executor);
        assets.put("/", asset("index.html", "text/html; charset=utf-8"));
        assets.put("/console.js", asset("console.js", "text/javascript; charset=utf-8"));
        assets.put("/console.css", asset("console.css", "text/css; charset=utf-8"));
    }

    private static OpsResponse asset(String name, String contentType) {
        try (InputStream in = OperatorConsole.class.getResourceAsStream(RESOURCES + name)) {
            if (in == null) {
                throw new IllegalStateException("the console's " + name + " is missing from the jar");
            }
            return new OpsResponse(200, contentType, in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts sampling the charts; call once the gateway has started. */
    public void start() {
        stream.start();
    }

    /** The paths it serves, for the ops server's 404 hint. */
    List<String> paths() {
        List<String> paths = new java.util.ArrayList<>(assets.keySet());
        paths.add(EVENTS);
        paths.add("/admin/...");
        return paths;
    }

    boolean serves(String path) {
        return assets.containsKey(path) || path.equals(EVENTS) || path.startsWith("/admin/");
    }

    /** How many consoles are connected now. */
    int watchers() {
        return stream.watchers();
    }

    /**
     * Answers one request for a console path; the event stream is served on this thread until the
     * console goes away. Returns null when the stream answered itself.
     */
    OpsResponse answer(HttpExchange exchange) throws IOException {
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getPath();
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        if (path.startsWith("/admin/")) {
            return admin.answer(method, path, exchange.getRequestURI().getRawQuery(), authorization);
        }
        if (!"GET".equals(method) && !("HEAD".equals(method) && !path.equals(EVENTS))) {
            return OpsResponse.text(405, "method not allowed: " + method + " (GET" + (path.equals(EVENTS) ? "" : " or HEAD")
                    + ")\n");
        }
        if (path.equals(EVENTS)) {
            boolean withText = "1".equals(AdminActions.params(exchange.getRequestURI().getRawQuery()).get("text"));
            if (withText) {
                OpsResponse refusal = admin.refusal(path + "?text=1", authorization);
                if (refusal != null) {
                    return refusal;
                }
            }
            stream.serve(exchange, withText);
            return null;
        }
        return assets.get(path);
    }

    @Override
    public void close() {
        stream.close();
    }
}
