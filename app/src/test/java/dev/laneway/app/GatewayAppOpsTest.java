package dev.laneway.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ops endpoints of the real {@link GatewayApp} (console channel, echo agent, SQLite store,
 * port 0), not of a test fixture: status and shape of every path, 503 "shutting down" during the
 * shutdown grace period, and no port at all when {@code gateway.http.enabled} is false.
 */
class GatewayAppOpsTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private String yaml(String http, int echoDelayMs) {
        return """
                gateway:
                  dataDir: %s
                  shutdownGraceMs: 10000
                  http: %s
                agents:
                  list:
                    assistant: { provider: echo, delayMs: %d }
                messages:
                  queue: { debounceMs: 0 }
                """.formatted(dir.resolve("data"), http, echoDelayMs);
    }

    private static JsonNode json(HttpResponse<String> response, int status) throws Exception {
        assertEquals(status, response.statusCode(), response.body());
        assertTrue(response.headers().firstValue("Content-Type").orElseThrow().startsWith("application/json"));
        return JSON.readTree(response.body());
    }

    @Test
    void everyOpsPathOfTheRealApp_answersWithTheRightStatusAndShape() throws Exception {
        try (InProcessApp running = new InProcessApp(yaml("{ enabled: true, bind: 127.0.0.1, port: 0 }", 0), Map.of())) {
            running.start();
            assertTrue(running.app().opsPort() > 0, "port 0 picked a free port");
            running.type("hello");
            running.awaitLine("echo: hello", WAIT);

            HttpResponse<String> health = running.get("/healthz");
            assertEquals(200, health.statusCode());
            assertEquals("ok\n", health.body());

            JsonNode ready = json(running.get("/readyz"), 200);
            assertTrue(ready.get("ready").asBoolean());
            assertTrue(ready.get("storeOpen").asBoolean());
            assertEquals(Map.of("console", true), JSON.convertValue(ready.get("channels"), Map.class));
            assertEquals(0, ready.get("reasons").size());

            HttpResponse<String> metrics = running.get("/metrics");
            assertEquals(200, metrics.statusCode());
            assertEquals("text/plain; version=0.0.4; charset=utf-8", metrics.headers().firstValue("Content-Type").orElseThrow());
            for (String series : List.of("laneway_inbound_messages_total{channel=\"console\",disposition=\"RAN\"}",
                    "laneway_outbound_messages_total{channel=\"console\"}", "laneway_outbound_failed_total{channel=\"console\"}",
                    "laneway_runs_total{agent=\"assistant\",outcome=\"completed\"}", "laneway_channel_connected{channel=\"console\"}",
                    "laneway_lane_capacity{lane=\"main\"}", "laneway_pending_messages")) {
                assertTrue(metrics.body().lines().anyMatch(line -> line.startsWith(series + " ")), series + " in\n" + metrics.body());
            }

            JsonNode status = json(running.get("/status"), 200);
            for (String field : List.of("lanes", "sessions", "busySessions", "pendingMessages", "maxPendingRuns",
                    "deepestQueues", "channels")) {
                assertTrue(status.has(field), field + " in " + status);
            }
            assertEquals("main", status.get("lanes").get(0).get("name").asText());
            assertEquals(1000, status.get("maxPendingRuns").asInt());
            assertTrue(status.get("channels").get("console").asBoolean());

            JsonNode limits = json(running.get("/capabilities"), 200).get("limits");
            assertEquals(4, limits.get("maxConcurrent").asInt());
            assertEquals(1000, limits.get("maxPendingRuns").asInt());
            assertEquals("collect", limits.get("queue").get("mode").asText());
            assertEquals(0, limits.get("queue").get("debounceMs").asInt());
            assertEquals(3_600_000L, limits.get("queueTtlMs").asLong());

            assertEquals(404, running.get("/nope").statusCode());
        }
    }

    @Test
    void readyz_answers503ShuttingDown_throughTheGracePeriod_whileTheLastAnswerStillGoesOut() throws Exception {
        try (InProcessApp running = new InProcessApp(yaml("{ enabled: true, bind: 127.0.0.1, port: 0 }", 1500), Map.of())) {
            running.start();
            running.type("slow");
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (json(running.get("/status"), 200).get("pendingMessages").asInt() == 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait(); // until the console reader has handed the message over
            }
            CompletableFuture<Void> stopping = CompletableFuture.runAsync(running.app()::shutdown);
            JsonNode down = null;
            while (down == null && System.nanoTime() < deadline) {
                HttpResponse<String> response = running.get("/readyz");
                if (response.statusCode() == 503) {
                    down = JSON.readTree(response.body());
                }
            }
            assertTrue(down != null, "/readyz never answered 503 during the shutdown");
            assertFalse(down.get("ready").asBoolean());
            assertEquals("shutting down", down.get("reasons").get(0).asText(), "the ops server is still up: in the grace period");

            running.awaitLine("echo: slow", WAIT);
            stopping.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }
    }

    @Test
    void httpDisabled_opensNoPort() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        String http = "{ enabled: false, bind: 127.0.0.1, port: %d }".formatted(port);
        try (InProcessApp running = new InProcessApp(yaml(http, 0), Map.of())) {
            running.start();
            running.type("hello");
            running.awaitLine("echo: hello", WAIT); // up and answering
            assertEquals(-1, running.app().opsPort());
            assertThrows(ConnectException.class, () -> new Socket(InetAddress.getLoopbackAddress(), port).close(),
                    "nothing listens on the configured port");
        }
    }
}
