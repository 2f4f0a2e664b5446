package dev.laneway.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.laneway.core.testing.LogCapture;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator console's HTTP side on the real {@link GatewayApp} (docs/behaviour.md §18): the page
 * and its assets, the event stream (snapshots, dispositions without text, text only with the admin
 * token), and the admin actions: refused without the token, with a wrong one, or with none
 * configured; done with it.
 */
class ConsoleApiTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final ObjectMapper JSON = new ObjectMapper();
    static final String TOKEN = "console-test-token-0123456789";

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private String yaml(String token, int echoDelayMs) {
        return """
                gateway:
                  dataDir: %s
                  http: { bind: 127.0.0.1, port: 0%s }
                agents:
                  list:
                    assistant: { provider: echo, delayMs: %d }
                messages:
                  queue: { debounceMs: 0, mode: followup }
                schedules:
                  - id: nightly
                    every: 1h
                    target: { channel: console, chat: console }
                    prompt: ping
                """.formatted(dir.resolve("data"), token == null ? "" : ", adminToken: " + token, echoDelayMs);
    }

    private HttpResponse<String> request(InProcessApp app, String method, String path, String token) throws Exception {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.app().opsPort() + path))
                .timeout(Duration.ofSeconds(10)).method(method, HttpRequest.BodyPublishers.noBody());
        if (token != null) {
            builder.header("Authorization", "Bearer " + token);
        }
        return http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * The status of a request whose body is not read: a stream that was wrongly opened (a refusal
     * that did not happen) would otherwise never end; its headers carry the status and it is closed.
     */
    private HttpResponse<java.io.InputStream> head(InProcessApp app, String path, String token) throws Exception {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.app().opsPort() + path))
                .timeout(Duration.ofSeconds(10)).GET();
        if (token != null) {
            builder.header("Authorization", "Bearer " + token);
        }
        HttpResponse<java.io.InputStream> response = http.send(builder.build(), HttpResponse.BodyHandlers.ofInputStream());
        response.body().close();
        return response;
    }

    /** The events of one open {@code /events} stream, as (name, JSON) pairs, read on a thread of their own. */
    private static final class EventReader implements AutoCloseable {
        final BlockingQueue<Map.Entry<String, JsonNode>> events = new ArrayBlockingQueue<>(10_000);
        private final Stream<String> lines;
        private final Thread thread;

        EventReader(HttpResponse<Stream<String>> response) {
            this.lines = response.body();
            this.thread = Thread.ofVirtual().start(() -> {
                String name = null;
                try {
                    Iterator<String> it = lines.iterator();
                    while (it.hasNext()) {
                        String line = it.next();
                        if (line.startsWith("event: ")) {
                            name = line.substring(7);
                        } else if (line.startsWith("data: ")) {
                            events.add(Map.entry(name, JSON.readTree(line.substring(6))));
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    // closed
                }
            });
        }

        JsonNode next(String name) throws InterruptedException {
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (true) {
                Map.Entry<String, JsonNode> event = events.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (event == null) {
                    fail("no " + name + " event within " + WAIT);
                }
                if (event.getKey().equals(name)) {
                    return event.getValue();
                }
            }
        }

        /** The next snapshot that satisfies {@code test}. */
        JsonNode snapshot(java.util.function.Predicate<JsonNode> test) throws InterruptedException {
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (System.nanoTime() < deadline) {
                JsonNode snapshot = next("snapshot");
                if (test.test(snapshot)) {
                    return snapshot;
                }
            }
            return fail("no such snapshot within " + WAIT);
        }

        /** The next disposition event that satisfies {@code test}. */
        JsonNode disposition(java.util.function.Predicate<JsonNode> test) throws InterruptedException {
            while (true) {
                JsonNode event = next("disposition");
                if (test.test(event)) {
                    return event;
                }
            }
        }

        @Override
        public void close() {
            lines.close();
            thread.interrupt();
        }
    }

    private EventReader events(InProcessApp app, String query, String token) throws Exception {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.app().opsPort() + "/events" + query));
        if (token != null) {
            builder.header("Authorization", "Bearer " + token);
        }
        HttpResponse<Stream<String>> response = http.send(builder.build(), HttpResponse.BodyHandlers.ofLines());
        assertEquals(200, response.statusCode());
        assertEquals("text/event-stream; charset=utf-8", response.headers().firstValue("Content-Type").orElseThrow());
        return new EventReader(response);
    }

    @Test
    void thePageAndItsAssets_areServedFromTheJar_underAStrictContentSecurityPolicy() throws Exception {
        try (InProcessApp app = new InProcessApp(yaml(null, 0), Map.of()).start()) {
            long weight = 0;
            for (String[] asset : new String[][] {{"/", "text/html"}, {"/console.js", "text/javascript"},
                    {"/console.css", "text/css"}}) {
                HttpResponse<String> page = request(app, "GET", asset[0], null);
                assertEquals(200, page.statusCode(), asset[0]);
                assertTrue(page.headers().firstValue("Content-Type").orElseThrow().startsWith(asset[1]), asset[0]);
                assertTrue(page.headers().firstValue("Content-Security-Policy").orElseThrow().contains("script-src 'self'"));
                String body = page.body().replace("http://www.w3.org/2000/svg", ""); // a namespace, not a load
                assertFalse(body.contains("http://") || body.contains("https://") || body.contains("//cdn"),
                        asset[0] + " loads nothing from elsewhere (works offline)");
                weight += page.body().getBytes(StandardCharsets.UTF_8).length;
            }
            System.out.println("console page weight on first load: " + weight + " bytes (index.html + console.js + console.css)");
            assertTrue(request(app, "GET", "/", null).body().contains("<script src=\"/console.js\""));
            assertEquals(405, request(app, "POST", "/", null).statusCode());
            assertEquals(405, request(app, "GET", "/admin/jobs/pause?id=nightly", TOKEN).statusCode());
            assertEquals(404, request(app, "POST", "/admin/nothing", TOKEN).statusCode());
        }
    }

    @Test
    void theStream_sendsSnapshots_andEachDisposition_withoutItsText() throws Exception {
        try (InProcessApp app = new InProcessApp(yaml(TOKEN, 0), Map.of()).start();
             EventReader events = events(app, "", null)) {
            JsonNode first = events.next("snapshot");
            assertEquals("main", first.get("lanes").get(0).get("name").asText());
            assertEquals("nightly", first.get("jobs").get(0).get("id").asText());
            assertFalse(first.get("jobs").get(0).get("paused").asBoolean());
            assertTrue(first.get("scheduler").get("classes").has("interactive"));
            assertTrue(first.get("channels").get("console").asBoolean());

            app.type("a secret hello");
            app.awaitLine("echo: a secret hello", WAIT);
            JsonNode ran = events.disposition(d -> d.get("disposition").asText().equals("RAN"));
            assertEquals("console", ran.get("channel").asText());
            assertTrue(ran.get("text").isNull(), "the text is hidden: " + ran);
            assertTrue(ran.get("seq").asLong() >= 1);

            JsonNode later = events.next("snapshot");
            assertTrue(later.get("at").asLong() >= first.get("at").asLong());
            assertTrue(later.get("chart").size() <= 5, "after the first snapshot, only the last points: " + later.get("chart"));
            events.snapshot(snapshot -> {
                long ended = 0;
                for (JsonNode point : snapshot.get("chart")) {
                    ended += point.get("messages").asLong();
                }
                return ended >= 1; // the throughput chart counts the message
            });
        }
    }

    @Test
    void messageText_isSentOnlyToAStreamThatProvesTheAdminToken() throws Exception {
        try (InProcessApp app = new InProcessApp(yaml(TOKEN, 0), Map.of()).start()) {
            HttpResponse<java.io.InputStream> refused = head(app, "/events?text=1", null);
            assertEquals(401, refused.statusCode());
            assertEquals("Bearer", refused.headers().firstValue("WWW-Authenticate").orElseThrow());
            assertEquals(401, head(app, "/events?text=1", "wrong-token-wrong-token").statusCode());
            try (EventReader events = events(app, "?text=1", TOKEN)) {
                events.next("snapshot");
                app.type("shown to the operator");
                JsonNode ran = events.disposition(d -> d.get("disposition").asText().equals("RAN"));
                assertEquals("shown to the operator", ran.get("text").asText());
            }
        }
    }

    @Test
    void adminActions_needTheToken_andNeverLogIt() throws Exception {
        try (InProcessApp app = new InProcessApp(yaml(TOKEN, 0), Map.of()).start();
             LogCapture log = LogCapture.of(dev.laneway.app.ops.OpsServer.class.getPackageName())) {
            HttpResponse<String> none = request(app, "POST", "/admin/jobs/pause?id=nightly", null);
            assertEquals(401, none.statusCode());
            assertEquals("this needs the admin token: send the header Authorization: Bearer <gateway.http.adminToken>",
                    JSON.readTree(none.body()).get("error").asText());
            HttpResponse<String> wrong = request(app, "POST", "/admin/jobs/pause?id=nightly", TOKEN + "x");
            assertEquals(401, wrong.statusCode());
            assertEquals("the admin token is wrong: send the header Authorization: Bearer <gateway.http.adminToken>",
                    JSON.readTree(wrong.body()).get("error").asText());
            assertFalse(job(app).get("paused").asBoolean(), "refused: nothing changed");

            HttpResponse<String> paused = request(app, "POST", "/admin/jobs/pause?id=nightly", TOKEN);
            assertEquals(200, paused.statusCode(), paused.body());
            assertEquals(Map.of("action", "pause", "job", "nightly", "changed", true), JSON.readValue(paused.body(), Map.class));
            assertTrue(job(app).get("paused").asBoolean());
            assertTrue(job(app).get("nextFire").isNull());
            assertEquals(false, JSON.readTree(request(app, "POST", "/admin/jobs/pause?id=nightly", TOKEN).body())
                    .get("changed").asBoolean());
            assertEquals(200, request(app, "POST", "/admin/jobs/resume?id=nightly", TOKEN).statusCode());
            assertFalse(job(app).get("paused").asBoolean());
            assertFalse(job(app).get("nextFire").isNull());

            assertEquals(404, request(app, "POST", "/admin/jobs/pause?id=nope", TOKEN).statusCode());
            assertEquals(400, request(app, "POST", "/admin/jobs/pause", TOKEN).statusCode());
            assertEquals(400, request(app, "POST", "/admin/conversations/stop", TOKEN).statusCode());
            String logged = String.join("\n", log.lines().stream().map(LogCapture.Line::message).toList());
            assertTrue(logged.contains("ops: admin request /admin/jobs/pause refused: no admin token"), logged);
            assertTrue(logged.contains("ops: admin request /admin/jobs/pause refused: wrong admin token"), logged);
            assertFalse(logged.contains(TOKEN), "the token is never logged");
        }
    }

    private JsonNode job(InProcessApp app) throws Exception {
        return JSON.readTree(app.get("/status").body()).get("jobs").get(0);
    }

    @Test
    void withoutAConfiguredToken_adminActionsAreOff() throws Exception {
        try (InProcessApp app = new InProcessApp(yaml(null, 0), Map.of()).start()) {
            HttpResponse<String> off = request(app, "POST", "/admin/jobs/pause?id=nightly", "anything-at-all-123");
            assertEquals(403, off.statusCode());
            assertEquals("admin actions are off: set gateway.http.adminToken to use them",
                    JSON.readTree(off.body()).get("error").asText());
            assertEquals(403, head(app, "/events?text=1", null).statusCode());
        }
    }

    @Test
    void providerPools_showTheirLimit_inUse_429s_andCircuit() throws Exception {
        try (FakeModelServer model = new FakeModelServer()) {
            String yaml = """
                    gateway: { dataDir: %s, http: { bind: 127.0.0.1, port: 0 } }
                    providers:
                      hosted:
                        baseUrl: %s
                        apiKey: sk-console-test
                        model: test-model
                        maxConcurrent: 2
                        circuit: { failures: 2, window: 60s, openFor: 1h }
                    agents:
                      list:
                        assistant: { provider: openai, endpoint: hosted, maxRetries: 0 }
                    """.formatted(dir.resolve("data"), model.baseUrl());
            try (InProcessApp app = new InProcessApp(yaml, Map.of()).start();
                 EventReader events = events(app, "", null)) {
                JsonNode pool = events.next("snapshot").get("providers").get(0);
                assertEquals("hosted", pool.get("name").asText());
                assertEquals(2, pool.get("limit").asInt());
                assertEquals(0, pool.get("running").asInt());
                assertEquals(0, pool.get("rateLimited").asInt());
                assertEquals("closed", pool.get("circuit").asText());

                model.failWith(429);
                app.type("slow down");
                app.awaitLineStartingWith("⚠️ Sorry, something went wrong while answering.", WAIT);
                events.snapshot(snapshot -> snapshot.get("providers").get(0).get("rateLimited").asInt() == 1);

                model.failWith(503);
                app.type("first");
                app.awaitLineStartingWith("⚠️ Sorry, something went wrong while answering.", WAIT);
                app.type("second");
                app.awaitLineStartingWith("⚠️ Sorry, something went wrong while answering.", WAIT);
                events.snapshot(snapshot -> snapshot.get("providers").get(0).get("circuit").asText().equals("open"));
            }
        }
    }

    @Test
    void clearQueue_leavesTheRunAlone_andStop_endsIt() throws Exception {
        try (InProcessApp app = new InProcessApp(yaml(TOKEN, 60_000), Map.of()).start();
             EventReader events = events(app, "", null)) {
            app.type("one");
            app.type("two");
            app.type("three");
            JsonNode busy = events.snapshot(snapshot -> snapshot.get("conversations").size() == 1
                    && snapshot.get("conversations").get(0).get("queued").asInt() == 2).get("conversations").get(0);
            String session = busy.get("session").asText();
            assertEquals("followup", busy.get("mode").asText());
            assertTrue(busy.get("oldestWaitSeconds").asLong() >= 0);
            JsonNode conversation = JSON.readTree(request(app, "GET", "/status", null).body());
            assertEquals(1, conversation.get("busySessions").asInt());

            String query = "?session=" + URLEncoder.encode(session, StandardCharsets.UTF_8);
            assertEquals(401, request(app, "POST", "/admin/conversations/clear" + query, null).statusCode());
            HttpResponse<String> cleared = request(app, "POST", "/admin/conversations/clear" + query, TOKEN);
            assertEquals(200, cleared.statusCode(), cleared.body());
            assertEquals(2, JSON.readTree(cleared.body()).get("cleared").asInt());
            assertTrue(JSON.readTree(cleared.body()).get("notified").asBoolean());
            app.awaitLine("⚙️ An operator cleared 2 queued message(s) in this conversation.", WAIT);
            assertEquals("STOPPED", events.next("disposition").get("disposition").asText());
            assertEquals("STOPPED", events.next("disposition").get("disposition").asText());
            JsonNode running = events.snapshot(snapshot -> snapshot.get("conversations").size() == 1
                    && snapshot.get("conversations").get(0).get("queued").asInt() == 0).get("conversations").get(0);
            assertTrue(running.get("running").asBoolean(), "the run goes on");

            HttpResponse<String> stopped = request(app, "POST", "/admin/conversations/stop" + query, TOKEN);
            assertEquals(200, stopped.statusCode(), stopped.body());
            assertEquals("RAN", events.next("disposition").get("disposition").asText(), "the aborted run's message ran (D9)");
            app.awaitLine("⚙️ An operator stopped this conversation's run.", WAIT);
            events.snapshot(snapshot -> snapshot.get("conversations").isEmpty()); // the session is idle
        }
    }
}
