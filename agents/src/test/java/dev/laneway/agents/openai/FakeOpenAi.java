package dev.laneway.agents.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An in-process OpenAI-compatible server on 127.0.0.1, scripted per test: each request to
 * {@code /v1/chat/completions} is recorded and answered by the next scripted {@link Response}.
 *
 * <p>It can also behave like a provider with limits ({@link #enforce}): beyond a number of requests
 * in flight, or of requests per minute (a bucket of a minute's requests that refills continuously,
 * as hosted providers describe theirs, on a clock the test drives), it answers 429 with a
 * {@code Retry-After} instead of taking the next script entry; and it can fail every request with a
 * 5xx on command ({@link #failWith}). It counts what it saw: the most requests in flight at once and
 * the 429s it sent.
 *
 * <p>{@code lock} guards {@code received}, the in-flight count, the minute's requests and the
 * counters; the script is a concurrent queue.
 */
final class FakeOpenAi implements AutoCloseable {

    /** One scripted answer; it may block (on gates) since each exchange has its own thread. */
    @FunctionalInterface
    interface Response {
        void write(HttpExchange exchange, FakeOpenAi fake) throws Exception;
    }

    /** A request as the server saw it. */
    record Received(JsonNode body, Headers headers) {
        JsonNode messages() {
            return body.get("messages");
        }

        JsonNode lastMessage() {
            return messages().get(messages().size() - 1);
        }
    }

    static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final Queue<Response> script = new ConcurrentLinkedQueue<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final List<CompletableFuture<Received>> received = new ArrayList<>(); // guarded by lock, by arrival
    private final CompletableFuture<Void> closed = new CompletableFuture<>();
    private volatile Limits limits;            // null: no limits enforced
    private volatile int failStatus;           // 0: answer normally
    private int inFlight;                      // guarded by lock
    private int maxInFlight;                   // guarded by lock
    private int rateLimited;                   // guarded by lock
    private double requestTokens = -1;         // guarded by lock: the rpm bucket (-1: not filled yet)
    private long refilledAt;                   // guarded by lock

    /** What the fake enforces: requests in flight, requests per minute on {@code clock}, the Retry-After it names. */
    record Limits(int maxConcurrent, int rpm, String retryAfter, java.time.InstantSource clock) {
    }

    FakeOpenAi() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/chat/completions", this::handle);
        server.createContext("/v1/audio/transcriptions", this::transcribe);
        server.setExecutor(executor);
        server.start();
    }

    /** The transcription endpoint's next answers: a status and, for a 200, the transcript. */
    private final Queue<java.util.Map.Entry<Integer, String>> transcripts = new ConcurrentLinkedQueue<>();
    /** Every transcription request's multipart body, as text (ISO-8859-1, so bytes survive). */
    final List<String> transcriptionBodies = new java.util.concurrent.CopyOnWriteArrayList<>();

    FakeOpenAi transcript(int status, String text) {
        transcripts.add(java.util.Map.entry(status, text));
        return this;
    }

    private void transcribe(HttpExchange exchange) throws IOException {
        try (exchange) {
            transcriptionBodies.add(new String(exchange.getRequestBody().readAllBytes(),
                    java.nio.charset.StandardCharsets.ISO_8859_1));
            var next = transcripts.poll();
            if (next == null || next.getKey() != 200) {
                send(exchange, next == null ? 500 : next.getKey(), "application/json", "{\"error\":{\"message\":\"down\"}}");
                return;
            }
            send(exchange, 200, "application/json", JSON.writeValueAsString(java.util.Map.of("text", next.getValue())));
        }
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    /** From now on, answers 429 beyond these limits (0: that limit is off). */
    FakeOpenAi enforce(int maxConcurrent, int rpm, String retryAfter, java.time.InstantSource clock) {
        limits = new Limits(maxConcurrent, rpm, retryAfter, clock);
        return this;
    }

    /** From now on, every request gets this status (a 5xx), until {@code failWith(0)}. */
    FakeOpenAi failWith(int status) {
        failStatus = status;
        return this;
    }

    /** The most requests it answered at once (429s and failures not counted). */
    int maxInFlight() {
        lock.lock();
        try {
            return maxInFlight;
        } finally {
            lock.unlock();
        }
    }

    /** How many 429s it sent for its limits. */
    int rateLimited() {
        lock.lock();
        try {
            return rateLimited;
        } finally {
            lock.unlock();
        }
    }

    FakeOpenAi then(Response response) {
        script.add(response);
        return this;
    }

    /** The request number {@code index} (0-based), waiting for it up to 10 s. */
    Received request(int index) {
        try {
            return slot(index).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("request " + index + " never arrived", e);
        }
    }

    int requestCount() {
        lock.lock();
        try {
            return (int) received.stream().filter(CompletableFuture::isDone).count();
        } finally {
            lock.unlock();
        }
    }

    /** Completes when the fake is closed; scripted waits also end then. */
    CompletableFuture<Void> closed() {
        return closed;
    }

    private CompletableFuture<Received> slot(int index) {
        lock.lock();
        try {
            while (received.size() <= index) {
                received.add(new CompletableFuture<>());
            }
            return received.get(index);
        } finally {
            lock.unlock();
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            JsonNode body = JSON.readTree(exchange.getRequestBody().readAllBytes());
            record(new Received(body, exchange.getRequestHeaders()));
            int failing = failStatus;
            if (failing != 0) {
                Responses.status(failing).write(exchange, this);
                return;
            }
            Limits enforced = limits;
            if (enforced != null && !admit(enforced)) {
                Responses.status(429, "Retry-After", enforced.retryAfter()).write(exchange, this);
                return;
            }
            if (enforced != null) {
                ADMITTED.put(exchange, this);
            }
            try {
                Response response = script.poll();
                if (response == null) {
                    Responses.status(500).write(exchange, this);
                } else {
                    response.write(exchange, this);
                }
            } finally {
                answering(exchange);
            }
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }

    /** Takes a request in, or says it is beyond a limit (counted as a 429). */
    private boolean admit(Limits enforced) {
        lock.lock();
        try {
            long now = enforced.clock().millis();
            if (requestTokens < 0) {
                requestTokens = enforced.rpm();
                refilledAt = now;
            }
            requestTokens = Math.min(enforced.rpm(), requestTokens + (now - refilledAt) * enforced.rpm() / 60_000.0);
            refilledAt = now;
            if (enforced.maxConcurrent() > 0 && inFlight >= enforced.maxConcurrent()
                    || enforced.rpm() > 0 && requestTokens < 1) {
                rateLimited++;
                return false;
            }
            requestTokens -= 1;
            inFlight++;
            maxInFlight = Math.max(maxInFlight, inFlight);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Exchanges admitted under the limits and not yet answering (exchange attributes are per context, not per exchange). */
    private static final java.util.Map<HttpExchange, FakeOpenAi> ADMITTED = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * The answer to an admitted request starts: it no longer counts as in flight (before the client can
     * see the answer end and send its next request). Once per exchange.
     */
    static void answering(HttpExchange exchange) {
        FakeOpenAi fake = ADMITTED.remove(exchange);
        if (fake != null) {
            fake.leave();
        }
    }

    private void leave() {
        lock.lock();
        try {
            inFlight--;
        } finally {
            lock.unlock();
        }
    }

    /** Fills the first slot not yet filled, under the lock (two requests at once must not take the same one). */
    private void record(Received request) {
        lock.lock();
        try {
            for (CompletableFuture<Received> slot : received) {
                if (!slot.isDone()) {
                    slot.complete(request);
                    return;
                }
            }
            received.add(CompletableFuture.completedFuture(request));
        } finally {
            lock.unlock();
        }
    }

    static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        answering(exchange);
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    @Override
    public void close() {
        closed.complete(null);
        server.stop(0);
        executor.shutdownNow();
    }
}
