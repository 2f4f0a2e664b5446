package dev.laneway.app.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.laneway.config.GatewayConfig;
import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueOverride;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.engine.GatewaySettings;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The ops endpoints over real HTTP, against a running gateway. */
class OpsServerTest {

    private OpsFixture ops;

    private OpsFixture start(GatewaySettings settings) {
        ops = new OpsFixture(settings);
        return ops;
    }

    @AfterEach
    void stop() {
        if (ops != null) {
            ops.close();
        }
    }

    @Test
    void healthz_answersOk_whileTheProcessIsUp() {
        HttpResponse<String> response = start(GatewaySettings.defaults()).get("/healthz");
        assertEquals(200, response.statusCode());
        assertEquals("ok\n", response.body());
        assertTrue(response.headers().firstValue("Content-Type").orElseThrow().startsWith("text/plain"));
    }

    @Test
    void readyz_isReady_whenTheStoreIsOpenAndEveryChannelIsConnected() {
        JsonNode ready = start(GatewaySettings.defaults()).json("/readyz", 200);
        assertTrue(ready.get("ready").asBoolean());
        assertTrue(ready.get("storeOpen").asBoolean());
        assertTrue(ready.get("channels").get("test").asBoolean());
        assertEquals(0, ready.get("reasons").size());
    }

    @Test
    void readyz_turns503_namingTheChannel_whileAChannelIsDisconnected() {
        start(GatewaySettings.defaults());
        ops.channel("test").connected(false);
        JsonNode down = ops.json("/readyz", 503);
        assertFalse(down.get("ready").asBoolean());
        assertFalse(down.get("channels").get("test").asBoolean());
        assertEquals("channel test is not connected", down.get("reasons").get(0).asText());

        ops.channel("test").connected(true);
        assertEquals(200, ops.get("/readyz").statusCode(), "ready again once the channel reconnects");
    }

    @Test
    void readyz_turns503_whileAChannelThatFailedToStartIsRetried_andTurnsReadyOnceItHasStarted() {
        ops = new OpsFixture(GatewaySettings.defaults(), List.of("test"), channel -> channel.fake.failStarts(2));
        JsonNode down = ops.json("/readyz", 503);
        assertFalse(down.get("channels").get("test").asBoolean());
        assertEquals("channel test is not connected", down.get("reasons").get(0).asText());
        assertEquals(0.0, ops.metric("laneway_channel_connected{channel=\"test\"}"));

        ops.time.advance(Duration.ofSeconds(1));
        assertEquals(503, ops.get("/readyz").statusCode(), "the second attempt failed too");
        ops.time.advance(Duration.ofSeconds(2));
        assertEquals(3, ops.channel("test").fake.startAttempts());
        assertEquals(200, ops.get("/readyz").statusCode(), "started on the third attempt");
        assertEquals(1.0, ops.metric("laneway_channel_connected{channel=\"test\"}"));
    }

    @Test
    void readyz_answers503ShuttingDown_fromTheMomentShutdownBegins_whileRunsStillFinish() throws Exception {
        start(GatewaySettings.defaults());
        ops.dm("alice", "slow question");
        CompletableFuture<Boolean> stopped = CompletableFuture.supplyAsync(() -> {
            try {
                return ops.gateway.shutdown(Duration.ofSeconds(30));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!ops.gateway.shuttingDown() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        JsonNode down = ops.json("/readyz", 503);
        assertFalse(down.get("ready").asBoolean());
        assertEquals("shutting down", down.get("reasons").get(0).asText());
        assertFalse(stopped.isDone(), "still in the grace period: the run has not finished");

        ops.completeOpenRuns();
        assertTrue(stopped.get(10, TimeUnit.SECONDS));
        assertEquals(List.of("done"), ops.channel("test").fake.texts(), "the answer still went out");
    }

    @Test
    void readyz_turns503_whenTheStoreIsClosed() {
        start(GatewaySettings.defaults());
        ops.storeOpen.set(false);
        JsonNode down = ops.json("/readyz", 503);
        assertEquals("the session store is not open", down.get("reasons").get(0).asText());
    }

    @Test
    void readyz_turns503_whileTheStoreCannotReachItsServer_andReadyAgainWhenItCan() {
        start(GatewaySettings.defaults());
        ops.storeReachable.set(false); // Redis down: the store's last write or the fleet's beat failed
        JsonNode down = ops.json("/readyz", 503);
        assertEquals(List.of("the session store cannot be reached"),
                List.of(down.get("reasons").get(0).asText()));
        ops.storeReachable.set(true);
        ops.json("/readyz", 200);
    }

    @Test
    void status_showsConfiguredLanes_sessionStates_pendingMessages_deepestQueues_andChannels() {
        start(GatewaySettings.builder().mainMaxConcurrent(1).maxPendingRuns(50).build());
        ops.dm("alice", "run");
        ops.dm("alice", "queued one");
        ops.dm("alice", "queued two");
        ops.dm("bob", "waits for main");

        JsonNode status = ops.json("/status", 200);

        JsonNode main = status.get("lanes").get(0);
        assertEquals("main", main.get("name").asText());
        assertEquals(1, main.get("cap").asInt());
        assertEquals(1, main.get("active").asInt());
        assertEquals(1, main.get("queued").asInt(), "bob's run waits for the single main slot");
        assertEquals(List.of("main", "cron", "fallback", "subagent"), names(status.get("lanes")), "configured lanes only");
        assertEquals(2, status.get("sessions").get("running").asInt(), status.toString());
        assertEquals(0, status.get("sessions").get("debouncing").asInt());
        assertEquals(2, status.get("busySessions").asInt());
        assertEquals(4, status.get("pendingMessages").asInt());
        assertEquals(50, status.get("maxPendingRuns").asInt());
        JsonNode deepest = status.get("deepestQueues");
        assertEquals(1, deepest.size(), "sessions with nothing queued are not listed: " + deepest);
        assertEquals("test:dm:alice", deepest.get(0).get("session").asText());
        assertEquals(2, deepest.get(0).get("depth").asInt());
        JsonNode scheduler = status.get("scheduler");
        assertEquals("fair", scheduler.get("mode").asText());
        assertEquals(1, scheduler.get("running").asInt());
        assertEquals(1, scheduler.get("waiting").asInt());
        assertEquals(1, scheduler.get("classes").get("interactive").get("waiting").asInt(), scheduler.toString());
        assertEquals(0, scheduler.get("classes").get("background").get("running").asInt());
        assertEquals("user:test:alice 1 0, user:test:bob 0 1", String.join(", ", scheduler.get("tenants").valueStream()
                .map(t -> t.get("tenant").asText() + " " + t.get("running").asInt() + " " + t.get("waiting").asInt())
                .toList()), "running and waiting runs per tenant");
        assertTrue(status.get("channels").get("test").asBoolean());
    }

    @Test
    void status_listsAtMostTheTenDeepestQueues() {
        start(GatewaySettings.builder().mainMaxConcurrent(1).maxPendingRuns(0).build());
        for (int sender = 1; sender <= 12; sender++) {
            ops.dm("user" + sender, "run");
            for (int queued = 0; queued < sender; queued++) {
                ops.dm("user" + sender, "queued " + queued);
            }
        }
        JsonNode deepest = ops.json("/status", 200).get("deepestQueues");
        assertEquals(StatusView.DEEPEST, deepest.size());
        assertEquals("test:dm:user12", deepest.get(0).get("session").asText());
        assertEquals(12, deepest.get(0).get("depth").asInt());
        assertEquals(3, deepest.get(9).get("depth").asInt());
    }

    @Test
    void capabilities_advertiseTheEffectiveLimits() {
        start(GatewaySettings.builder().mainMaxConcurrent(3).maxPendingRuns(1000)
                .queueDefaults(new QueueSettings(QueueMode.FOLLOWUP, Duration.ofMillis(500), 7, DropPolicy.OLD))
                .queueByChannel(Map.of("test", QueueOverride.mode(QueueMode.STEER)))
                .laneCaps(Map.of("subagent", 8, "cron", 1)).build());

        JsonNode limits = ops.json("/capabilities", 200).get("limits");

        assertEquals(3, limits.get("maxConcurrent").asInt());
        assertEquals(1000, limits.get("maxPendingRuns").asInt());
        assertEquals(3, limits.get("lanes").get("main").asInt());
        assertEquals(8, limits.get("lanes").get("subagent").asInt());
        assertEquals(1, limits.get("lanes").get("cron").asInt());
        JsonNode queue = limits.get("queue");
        assertEquals("followup", queue.get("mode").asText());
        assertEquals(500, queue.get("debounceMs").asInt());
        assertEquals(7, queue.get("cap").asInt());
        assertEquals(4, queue.get("capPerSender").asInt(), "unset: half the cap, rounded up");
        assertEquals("old", queue.get("drop").asText());
        assertEquals(5000, queue.get("maxWaitMs").asInt(), "unset maxWait is 10 x the debounce");
        JsonNode test = limits.get("queueByChannel").get("test");
        assertEquals("steer", test.get("mode").asText());
        assertEquals(7, test.get("cap").asInt(), "a channel layer inherits what it does not set");
    }

    @Test
    void capabilities_showADisabledCapOrBoundAsNull() {
        JsonNode limits = start(GatewaySettings.builder().maxPendingRuns(0).queueMaxWait(Duration.ZERO)
                .queueCapPerSender(0).build()).json("/capabilities", 200).get("limits");
        assertTrue(limits.has("maxPendingRuns") && limits.get("maxPendingRuns").isNull(), limits.toString());
        assertTrue(limits.get("queue").get("maxWaitMs").isNull());
        assertTrue(limits.get("queue").get("capPerSender").isNull());
        assertTrue(limits.get("inbound").get("maxWaitMs").isNull());
        assertTrue(ops.json("/status", 200).get("maxPendingRuns").isNull());
    }

    @Test
    void metrics_servePrometheusText_withEverySeriesPresentFromTheStart() {
        HttpResponse<String> response = start(GatewaySettings.defaults()).get("/metrics");
        assertEquals(200, response.statusCode());
        assertEquals("text/plain; version=0.0.4; charset=utf-8", response.headers().firstValue("Content-Type").orElseThrow());
        String text = response.body();
        assertEquals(0.0, PrometheusText.value(text,
                "laneway_inbound_messages_total{channel=\"test\",disposition=\"REJECTED_BUSY\"}"));
        assertEquals(0.0, PrometheusText.value(text, "laneway_runs_total{agent=\"scripted\",outcome=\"failed\"}"));
        assertEquals(4.0, PrometheusText.value(text, "laneway_lane_capacity{lane=\"main\"}"));
        assertEquals(1.0, PrometheusText.value(text, "laneway_lane_capacity{lane=\"cron\"}"));
        assertEquals(1000.0, PrometheusText.value(text, "laneway_pending_messages_limit"));
        assertEquals(1.0, PrometheusText.value(text, "laneway_channel_connected{channel=\"test\"}"));
        assertEquals(0.0, PrometheusText.value(text, "laneway_outbound_failed_total{channel=\"test\"}"));
    }

    @Test
    void aReplyTheChannelFinallyFailsToSend_isCountedAsFailed() {
        start(GatewaySettings.defaults());
        ops.channel("test").fake.failSends(true);
        ops.dm("alice", "hello");
        ops.completeOpenRuns();
        assertEquals(1.0, ops.metric("laneway_outbound_failed_total{channel=\"test\"}"));
        assertEquals(0.0, ops.metric("laneway_outbound_messages_total{channel=\"test\"}"));
    }

    @Test
    void unknownPaths_are404_andMethodsOtherThanGetOrHead_are405() {
        start(GatewaySettings.defaults());
        assertEquals(404, ops.get("/nope").statusCode());
        assertEquals(404, ops.get("/").statusCode());
        HttpResponse<String> post = ops.send("POST", "/status");
        assertEquals(405, post.statusCode());
        assertEquals("GET, HEAD", post.headers().firstValue("Allow").orElseThrow());
        assertEquals(405, ops.send("DELETE", "/healthz").statusCode());
        HttpResponse<String> head = ops.send("HEAD", "/healthz");
        assertEquals(200, head.statusCode());
        assertEquals("", head.body());
    }

    @Test
    void portZero_bindsAFreePort_andStopIsIdempotent() {
        start(GatewaySettings.defaults());
        int port = ops.server.port();
        assertTrue(port > 0);
        assertEquals(200, ops.get("/healthz").statusCode());
        ops.server.stop();
        ops.server.stop();
        assertEquals(-1, ops.server.port());
        assertThrows(ConnectException.class, () -> new Socket("127.0.0.1", port).close(),
                "nothing listens after stop");
    }

    @Test
    void aTakenPort_failsToStart_namingTheSetting() throws Exception {
        start(GatewaySettings.defaults());
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            OpsServer second = new OpsServer(new GatewayConfig.Http(true, "127.0.0.1", taken.getLocalPort()),
                    new OpsEndpoints(ops.gateway, ops.metrics, Map::of, () -> true));
            UncheckedIOException e = assertThrows(UncheckedIOException.class, second::start);
            assertTrue(e.getMessage().contains("gateway.http.port"), e.getMessage());
        }
    }

    @Test
    void bindingBeyondLoopback_withoutAnAdminToken_refusesToStart() {
        start(GatewaySettings.defaults());
        OpsServer open = new OpsServer(new GatewayConfig.Http(true, "0.0.0.0", 0),
                new OpsEndpoints(ops.gateway, ops.metrics, Map::of, () -> true));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, open::start);
        assertEquals("gateway.http.bind is 0.0.0.0, not a loopback address: set gateway.http.adminToken, or bind"
                + " 127.0.0.1", e.getMessage());
        assertEquals(-1, open.port());
    }

    @Test
    void bindingBeyondLoopback_warnsAtStart_namingTheAddress_loopbackDoesNot() {
        start(GatewaySettings.defaults());
        try (dev.laneway.core.testing.LogCapture log = dev.laneway.core.testing.LogCapture.of(OpsServer.class)) {
            OpsServer open = new OpsServer(new GatewayConfig.Http(true, "0.0.0.0", 0,
                    new dev.laneway.config.Secret("0123456789abcdef-token")),
                    new OpsEndpoints(ops.gateway, ops.metrics, Map::of, () -> true));
            try {
                open.start();
                assertEquals(List.of("gateway.http.bind is 0.0.0.0: the ops endpoint is reachable from other machines;"
                        + " its read-only pages (/status, /metrics, the console) need no authentication and list session"
                        + " keys with user ids, only the console's admin actions need the admin token; bind 127.0.0.1"
                        + " unless a firewall or an authenticating proxy guards port " + open.port()), log.warnings());
            } finally {
                open.stop();
            }
        }
        try (dev.laneway.core.testing.LogCapture log = dev.laneway.core.testing.LogCapture.of(OpsServer.class)) {
            OpsServer loopback = new OpsServer(new GatewayConfig.Http(true, "127.0.0.1", 0),
                    new OpsEndpoints(ops.gateway, ops.metrics, Map::of, () -> true));
            try {
                loopback.start();
                assertEquals(List.of(), log.warnings());
            } finally {
                loopback.stop();
            }
        }
    }

    private static List<String> names(JsonNode lanes) {
        return StreamSupport.stream(lanes.spliterator(), false).map(lane -> lane.get("name").asText()).toList();
    }
}
