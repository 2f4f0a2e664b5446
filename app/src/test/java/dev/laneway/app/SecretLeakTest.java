package dev.laneway.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.laneway.app.ops.LogCapture;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A real run that goes wrong everywhere a secret could slip into a log line: the real app, with
 * every logger (Laneway and every library) at DEBUG, a Telegram channel whose Bot API rejects the
 * token and then drops connections (so the channel's start fails and is retried), and an openai
 * agent whose provider answers 500 (so the agent retries and the turn fails). Neither the bot
 * token nor the API key may appear in anything logged, nor in any ops endpoint.
 */
class SecretLeakTest {

    private static final String TELEGRAM_TOKEN = "123456:tg-SECRET-7f3a9c";
    private static final String OPENAI_KEY = "sk-SECRET-91bd44";
    private static final String ADMIN_TOKEN = "admin-SECRET-0f8e2d61c4";
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    /** A server on 127.0.0.1 that records each request's path and Authorization and answers with {@code handler}. */
    private static final class FailingServer implements AutoCloseable {
        final HttpServer server;
        final List<String> requests = new CopyOnWriteArrayList<>();

        FailingServer(Handler handler) throws IOException {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/", exchange -> {
                try (exchange) {
                    String auth = exchange.getRequestHeaders().getFirst("Authorization");
                    requests.add(exchange.getRequestURI().getPath() + (auth == null ? "" : " " + auth));
                    exchange.getRequestBody().readAllBytes();
                    handler.handle(exchange, requests.size());
                }
            });
            server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort();
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    @FunctionalInterface
    private interface Handler {
        void handle(HttpExchange exchange, int requestNumber) throws IOException;
    }

    private static void answer(HttpExchange exchange, int status, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.getResponseHeaders().set("Retry-After", "0");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Test
    void noTokenOrKeyAppearsInAnythingLogged_atDebug_whenTheBotApiAndTheModelProviderFail() throws Exception {
        AtomicInteger getMe = new AtomicInteger();
        List<String> outputs = new ArrayList<>();
        String logs;
        try (FailingServer botApi = new FailingServer((exchange, n) -> {
                 // first a clear rejection, afterwards the connection is dropped without an answer
                 if (getMe.incrementAndGet() == 1) {
                     answer(exchange, 401, "{\"ok\":false,\"error_code\":401,\"description\":\"Unauthorized\"}");
                 }
             });
             FailingServer model = new FailingServer((exchange, n) -> answer(exchange, 500,
                     "{\"error\":{\"message\":\"The server had an error while processing your request.\",\"type\":\"server_error\"}}"));
             LogCapture capture = new LogCapture(Level.DEBUG)) {
            for (String logger : List.of("dev.laneway", "org.telegram", "okhttp3", "com.fasterxml")) {
                assertTrue(LoggerFactory.getLogger(logger).isDebugEnabled(), logger + " logs at DEBUG during the run");
            }
            String yaml = """
                    gateway:
                      dataDir: %s
                      http: { enabled: true, bind: 127.0.0.1, port: 0, adminToken: "${LANEWAY_ADMIN_TOKEN}" }
                    agents:
                      list:
                        assistant:
                          provider: openai
                          baseUrl: %s/v1
                          apiKey: ${OPENAI_API_KEY}
                          model: gpt-4o-mini
                          maxRetries: 1
                    messages:
                      queue: { debounceMs: 0 }
                    channels:
                      console: { enabled: true }
                      telegram:
                        enabled: true
                        token: ${TELEGRAM_BOT_TOKEN}
                        apiUrl: %s
                    """.formatted(dir.resolve("data"), model.url(), botApi.url());
            try (InProcessApp running = new InProcessApp(yaml,
                    Map.of("OPENAI_API_KEY", OPENAI_KEY, "TELEGRAM_BOT_TOKEN", TELEGRAM_TOKEN,
                            "LANEWAY_ADMIN_TOKEN", ADMIN_TOKEN))) {
                running.start();
                running.type("hello");
                String failure = running.awaitLineStartingWith("⚠️ Sorry, something went wrong while answering.", WAIT);
                long deadline = System.nanoTime() + WAIT.toNanos();
                while (getMe.get() < 2 && System.nanoTime() < deadline) {
                    Thread.onSpinWait(); // the channel's start is retried 1 s after the first failure
                }
                for (String path : List.of("/healthz", "/readyz", "/metrics", "/status", "/capabilities", "/nope", "/",
                        "/console.js", "/admin/jobs/pause")) {
                    outputs.add(running.get(path).body());
                }
                outputs.add(running.post("/admin/jobs/pause?id=none", ADMIN_TOKEN + "-wrong").body());
                outputs.add(running.post("/admin/conversations/clear?session=console:dm:console", ADMIN_TOKEN).body());
                assertEquals(503, running.get("/readyz").statusCode(), "telegram never started");
                outputs.add(failure);
            }
            logs = capture.text();
            assertTrue(botApi.requests.size() >= 2 && botApi.requests.get(0).contains(TELEGRAM_TOKEN),
                    "the Bot API was called with the token, twice (start and a retry): " + botApi.requests);
            assertEquals(2, model.requests.size(), "one model call and one retry: " + model.requests);
            assertTrue(model.requests.get(0).endsWith("Bearer " + OPENAI_KEY), "the provider got the key");
        }

        assertTrue(logs.contains("channel telegram failed to start (attempt 1)"), logs);
        assertTrue(logs.contains("channel telegram failed to start (attempt 2)"), logs);
        assertTrue(logs.contains("HTTP 500"), "the provider's failure was logged");
        ObjectMapper json = new ObjectMapper();
        for (String line : logs.split("\n")) {
            assertTrue(json.readTree(line).has("level"), "every log line is one JSON object: " + line);
        }
        outputs.add(logs);
        for (String output : outputs) {
            for (String secret : List.of(TELEGRAM_TOKEN, OPENAI_KEY, ADMIN_TOKEN, "SECRET")) {
                assertFalse(output.contains(secret), "leaked " + secret + " in:\n" + output);
            }
        }
    }
}
