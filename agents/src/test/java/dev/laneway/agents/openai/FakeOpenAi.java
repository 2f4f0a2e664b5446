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
 * {@code lock} guards {@code received}; the script is a concurrent queue.
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

    FakeOpenAi() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/chat/completions", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
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
            nextSlot().complete(new Received(body, exchange.getRequestHeaders()));
            Response response = script.poll();
            if (response == null) {
                Responses.status(500).write(exchange, this);
            } else {
                response.write(exchange, this);
            }
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }

    private CompletableFuture<Received> nextSlot() {
        lock.lock();
        try {
            for (CompletableFuture<Received> slot : received) {
                if (!slot.isDone()) {
                    return slot;
                }
            }
            CompletableFuture<Received> slot = new CompletableFuture<>();
            received.add(slot);
            return slot;
        } finally {
            lock.unlock();
        }
    }

    static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
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
