package dev.laneway.app;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A tiny OpenAI-compatible server on 127.0.0.1 for end-to-end tests: every chat completion streams
 * back {@code model says: <last user message>} in two SSE chunks (and, when the request asks for it
 * with {@code stream_options.include_usage}, a last chunk with made-up usage: 7 prompt and 3
 * completion tokens), and each request body is kept. With {@link #holdRequests} on, each request
 * waits for {@link #release} before it is answered, so a test can hold a run "in flight" for as long
 * as it likes. {@link #failWith} makes every request fail with a status (a provider outage). It
 * counts the chat completions in flight and the most at once ({@link #maxInFlight}).
 *
 * <p>For fleet tests (FleetChaosIT): {@link #latency} makes every answer take that long, and a base
 * URL with a label ({@link #baseUrl(String)}, {@code /<label>/v1}) tells the instances apart: its
 * answers read {@code model says: <text> via <label>}. Every completion is kept as a {@link Call}
 * (who called, for which user text, from when to when), and {@link #overlaps} names each time a
 * call started while another call of the same session (the user text up to its first {@code -}) was
 * still being answered: two runs of one session at the same moment.
 */
final class FakeModelServer implements AutoCloseable {

    private static final Pattern LAST_USER = Pattern.compile("\"role\"\\s*:\\s*\"user\"\\s*,\\s*\"content\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");

    private final HttpServer server;
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    // request index -> released when the test lets it be answered (only while holding)
    private final Map<Integer, CompletableFuture<Void>> gates = new ConcurrentHashMap<>();
    private volatile boolean holding;
    private volatile boolean holdingMidStream;
    private volatile int failStatus;
    private volatile List<String> models = List.of();
    private volatile String requiredKey;
    private final java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicInteger maxInFlight = new java.util.concurrent.atomic.AtomicInteger();
    private volatile Duration latency = Duration.ZERO;
    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final Map<String, Integer> inFlightBySession = new ConcurrentHashMap<>(); // session -> calls being answered
    private final List<String> overlaps = new CopyOnWriteArrayList<>();

    /** One chat completion: the label of the base URL it came through, the last user text, and when. */
    record Call(String label, String text, long startNanos, long endNanos) {
    }

    FakeModelServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/chat/completions", this::complete);
        server.createContext("/v1/models", this::models);
        server.createContext("/", this::labelled);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.start();
    }

    /** The models {@code GET /v1/models} lists (by default none). */
    void serves(String... ids) {
        models = List.of(ids);
    }

    /** {@code GET /v1/models} answers 401 unless the request carries {@code Authorization: Bearer key}. */
    void requireKey(String key) {
        requiredKey = key;
    }

    private void models(HttpExchange exchange) throws IOException {
        try (exchange) {
            String auth = exchange.getRequestHeaders().getFirst("Authorization");
            authorizations.add(auth == null ? "" : auth);
            byte[] body;
            int status = 200;
            if (requiredKey != null && !("Bearer " + requiredKey).equals(auth)) {
                status = 401;
                body = "{\"error\":{\"message\":\"Incorrect API key provided\"}}".getBytes(StandardCharsets.UTF_8);
            } else {
                StringBuilder list = new StringBuilder("{\"object\":\"list\",\"data\":[");
                for (int i = 0; i < models.size(); i++) {
                    list.append(i == 0 ? "" : ",").append("{\"id\":\"").append(models.get(i))
                            .append("\",\"object\":\"model\"}");
                }
                body = list.append("]}").toString().getBytes(StandardCharsets.UTF_8);
            }
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    /** A base URL whose answers name {@code label} (letters and digits): how a test tells callers apart. */
    String baseUrl(String label) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/" + label + "/v1";
    }

    /** Every completion from now on is answered after {@code latency}. */
    void latency(Duration latency) {
        this.latency = latency;
    }

    /** Every labelled completion so far (those through {@link #baseUrl(String)}), in arrival order. */
    List<Call> calls() {
        return List.copyOf(calls);
    }

    /** Each time two calls of one session were answered at once, described. */
    List<String> overlaps() {
        return List.copyOf(overlaps);
    }

    private void labelled(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        Matcher labelled = Pattern.compile("/([A-Za-z0-9]+)/v1/chat/completions").matcher(path);
        if (!labelled.matches()) {
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
            return;
        }
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String label = labelled.group(1);
        String text = lastUser(body);
        String session = text.contains("-") ? text.substring(0, text.indexOf('-')) : text;
        long start = System.nanoTime();
        int before = inFlightBySession.merge(session, 1, Integer::sum) - 1;
        if (before > 0) {
            overlaps.add(text + " via " + label + " started while " + before + " other call(s) of " + session
                    + " were being answered");
        }
        try {
            Thread.sleep(latency.toMillis());
            answer(exchange, body, text + " via " + label, -1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            inFlightBySession.merge(session, -1, Integer::sum);
            calls.add(new Call(label, text, start, System.nanoTime()));
            exchange.close();
        }
    }

    private static String lastUser(String body) {
        String lastUser = "";
        Matcher matcher = LAST_USER.matcher(body);
        while (matcher.find()) {
            lastUser = matcher.group(1);
        }
        return lastUser;
    }

    List<String> requests() {
        return List.copyOf(requests);
    }

    List<String> authorizations() {
        return List.copyOf(authorizations);
    }

    /** From now on every request gets this status (e.g. 503), until {@code failWith(0)}. */
    void failWith(int status) {
        failStatus = status;
    }

    /** Whether requests arriving from now on wait for {@link #release} before they are answered. */
    void holdRequests(boolean on) {
        holding = on;
    }

    /**
     * Whether requests arriving from now on stream their first chunk at once and the rest only after
     * {@link #release} (an answer cut off mid-stream when the process dies meanwhile).
     */
    void holdMidStream(boolean on) {
        holdingMidStream = on;
    }

    /** Lets the request with this index (0 for the first one ever) be answered. */
    void release(int index) {
        gate(index).complete(null);
    }

    /** Waits until {@code count} requests have arrived; returns their bodies. */
    List<String> awaitRequests(int count, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (requests) {
            while (requests.size() < count) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("only " + requests.size() + " of " + count + " requests within " + timeout);
                }
                TimeUnit.NANOSECONDS.timedWait(requests, left);
            }
            return List.copyOf(requests);
        }
    }

    private CompletableFuture<Void> gate(int index) {
        return gates.computeIfAbsent(index, i -> new CompletableFuture<>());
    }

    /** The most chat completions it was answering at once. */
    int maxInFlight() {
        return maxInFlight.get();
    }

    /** Chat completions it is answering (or holding) now. */
    int inFlight() {
        return inFlight.get();
    }

    private void complete(HttpExchange exchange) throws IOException {
        int now = inFlight.incrementAndGet();
        maxInFlight.accumulateAndGet(now, Math::max);
        try {
            answer(exchange);
        } finally {
            inFlight.decrementAndGet();
        }
    }

    private void answer(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        int index;
        synchronized (requests) {
            requests.add(body);
            index = requests.size() - 1;
            requests.notifyAll();
        }
        if (holding) {
            try {
                gate(index).get(60, TimeUnit.SECONDS);
            } catch (InterruptedException | ExecutionException | TimeoutException e) {
                exchange.sendResponseHeaders(503, -1);
                exchange.close();
                return;
            }
        }
        int failing = failStatus;
        if (failing != 0) {
            byte[] error = ("{\"error\":{\"message\":\"status " + failing + "\"}}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(failing, error.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(error);
            }
            return;
        }
        String auth = exchange.getRequestHeaders().getFirst("Authorization");
        authorizations.add(auth == null ? "" : auth);
        answer(exchange, body, lastUser(body), index);
    }

    /** Streams the answer; {@code index} is the request's (for {@link #holdMidStream}), -1 for a labelled call. */
    private void answer(HttpExchange exchange, String body, String lastUser, int index) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            chunk(out, "model says: ");
            if (holdingMidStream && index >= 0) {
                try {
                    gate(index).get(60, TimeUnit.SECONDS);
                } catch (InterruptedException | ExecutionException | TimeoutException e) {
                    return; // the client went away, or the test ended
                }
            }
            chunk(out, lastUser);
            out.write("data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
                    .getBytes(StandardCharsets.UTF_8));
            if (body.contains("\"include_usage\":true")) {
                out.write(("data: {\"id\":\"c\",\"choices\":[],\"usage\":{\"prompt_tokens\":7,"
                        + "\"completion_tokens\":3,\"total_tokens\":10}}\n\n").getBytes(StandardCharsets.UTF_8));
            }
            out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
        }
    }

    private static void chunk(OutputStream out, String jsonEscapedText) throws IOException {
        String event = "data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + jsonEscapedText
                + "\"},\"finish_reason\":null}]}\n\n";
        out.write(event.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    @Override
    public void close() {
        holding = false;
        holdingMidStream = false;
        gates.values().forEach(gate -> gate.completeExceptionally(new IllegalStateException("closed")));
        server.stop(0);
    }
}
