package dev.laneway.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.config.ConfigLoader;
import dev.laneway.config.LanewayConfig;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueOverride;
import dev.laneway.core.SessionKey;
import dev.laneway.core.testing.LogCapture;
import dev.laneway.store.DurableStore;
import dev.laneway.store.StoreException;
import dev.laneway.store.redis.RedisServer;
import dev.laneway.store.redis.RedisStore;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * The app on Redis ({@code gateway.store.kind: redis}): the real {@link GatewayApp} answers on it,
 * a Redis that cannot be reached stops the start with an error naming the URL without its password,
 * and a Redis of another fleet is refused.
 */
class RedisStoreAppTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private final RedisServer server = RedisServer.shared();

    @BeforeEach
    void emptyRedis() {
        server.flushAll();
    }

    private static String yaml(String url, String fleet) {
        return """
                gateway:
                  http: { enabled: false }
                  store: { kind: redis, url: "%s", fleet: %s }
                agents:
                  list:
                    assistant: { provider: echo }
                messages:
                  queue: { debounceMs: 0 }
                """.formatted(url, fleet);
    }

    private static LanewayConfig config(String yaml) throws Exception {
        return ConfigLoader.parse(yaml, "laneway.yaml", Map.of());
    }

    @Test
    void theConfiguredRedisStoreIsOpened_andTheGatewayAnswersOnIt() throws Exception {
        try (DurableStore store = StoreSetup.open(config(yaml(server.url(), "support")))) {
            assertInstanceOf(RedisStore.class, store);
            assertEquals(server.url() + " (fleet support)", store.describe());
            store.setQueueOverride(SessionKey.of("console:local"), QueueOverride.mode(QueueMode.FOLLOWUP));
        }
        try (InProcessApp running = new InProcessApp(yaml(server.url(), "support"), Map.of())) {
            running.start();
            running.type("hello");
            running.awaitLine("echo: hello", WAIT);
        }
        try (Jedis jedis = server.client()) {
            assertEquals("support", jedis.get("laneway:fleet"));
            assertEquals(0, jedis.zcard("laneway:{support}:pending"), "answered: nothing left pending");
            assertEquals(0, jedis.hlen("laneway:{support}:journal"));
        }
        try (DurableStore store = StoreSetup.open(config(yaml(server.url(), "support")))) {
            assertEquals(Optional.of(QueueOverride.mode(QueueMode.FOLLOWUP)), store.queueOverride(SessionKey.of("console:local")));
            assertTrue(store.lastSequence() >= 1, "the message went through the Redis journal");
        }
    }

    @Test
    void statusHasAFleetSection_naming_thisInstance_theLiveOnes_andTheMainPermits() throws Exception {
        String yaml = yaml(server.url(), "support").replace("http: { enabled: false }",
                "http: { enabled: true, bind: 127.0.0.1, port: 0 }");
        try (InProcessApp running = new InProcessApp(yaml, Map.of())) {
            running.start();
            running.type("hello");
            running.awaitLine("echo: hello", WAIT);
            com.fasterxml.jackson.databind.JsonNode fleet = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(running.get("/status").body()).get("fleet");
            String instance = fleet.get("instance").asText();
            assertTrue(instance.matches(".+-\\d+-[0-9a-f]{6}"), instance);
            assertEquals(List.of(instance), List.of(fleet.get("instances").get(0).asText()));
            assertEquals(4, fleet.get("mainCap").asInt(), "agents.defaults.maxConcurrent");
            assertTrue(fleet.get("mainPermitsInUse").asLong() <= 4, fleet.toString());
            assertTrue(fleet.has("leasesHere") && fleet.has("mainPermitsHere"), fleet.toString());

            String metrics = running.get("/metrics").body(); // every series names its instance (D185)
            List<String> samples = metrics.lines().filter(line -> line.startsWith("laneway_")).toList();
            assertFalse(samples.isEmpty(), metrics);
            for (String sample : samples) {
                assertTrue(sample.contains("instance=\"" + instance + "\""), sample);
            }
        }
    }

    @Test
    void statusNamesWhoPollsTelegram_andEachInstancesLeasesAndPermits() throws Exception {
        try (FakeTelegramServer telegram = new FakeTelegramServer()) {
            String yaml = yaml(server.url(), "support").replace("http: { enabled: false }",
                    "http: { enabled: true, bind: 127.0.0.1, port: 0 }") + """
                    channels:
                      console: { enabled: false }
                      telegram: { enabled: true, token: "%s", apiUrl: "%s" }
                    """.formatted(FakeTelegramServer.TOKEN, telegram.url());
            try (InProcessApp running = new InProcessApp(yaml, Map.of())) {
                running.start();
                telegram.awaitFirstPoll(WAIT);
                com.fasterxml.jackson.databind.JsonNode fleet = new com.fasterxml.jackson.databind.ObjectMapper()
                        .readTree(running.get("/status").body()).get("fleet");
                String instance = fleet.get("instance").asText();
                com.fasterxml.jackson.databind.JsonNode ingress = fleet.get("ingress").get(0);
                assertEquals("telegram", ingress.get("channel").asText(), fleet.toString());
                assertEquals("polling", ingress.get("mode").asText());
                assertEquals(dev.laneway.channels.telegram.TelegramChannel.pollerLease(FakeTelegramServer.TOKEN),
                        ingress.get("lease").asText());
                assertEquals(List.of(instance), List.of(ingress.get("instances").get(0).asText()), "this one polls");
                com.fasterxml.jackson.databind.JsonNode member = fleet.get("members").get(0);
                assertEquals(instance, member.get("id").asText());
                assertEquals(0, member.get("leases").asInt(), "the poller's lease is not a session lease");
                assertTrue(member.get("heartbeatAgeMs").asLong() >= 0 && member.has("mainPermits"), member.toString());
            }
        }
    }

    @Test
    void anUnreachableRedis_stopsTheStartWithTheUrlNamed_andNoPassword() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        LanewayConfig config = config(yaml("redis://app:TOP-SECRET@127.0.0.1:" + closedPort, "support"));
        try (LogCapture log = LogCapture.all()) {
            StoreException e = assertThrows(StoreException.class, () -> new InProcessAppOf(config));
            assertTrue(e.getMessage().startsWith("could not open the Laneway store on Redis at redis://***@127.0.0.1:"
                    + closedPort + " (gateway.store.url)"), e.getMessage());
            assertFalse(e.getMessage().contains("TOP-SECRET"), e.getMessage());
            assertFalse(log.lines().toString().contains("TOP-SECRET"), log.lines().toString());
        }
    }

    @Test
    void aRedisOfAnotherFleet_isRefusedAtStart() throws Exception {
        try (DurableStore store = StoreSetup.open(config(yaml(server.url(), "support")))) {
            store.flush();
        }
        StoreException e = assertThrows(StoreException.class,
                () -> new InProcessAppOf(config(yaml(server.url(), "sales"))));
        assertTrue(e.getMessage().contains("belongs to the Laneway fleet \"support\""), e.getMessage());
    }

    /** Builds the app from a parsed config, as {@code laneway run} does (and closes it if it ever opens). */
    private static final class InProcessAppOf {
        InProcessAppOf(LanewayConfig config) {
            GatewayApp app = new GatewayApp(config, java.io.InputStream.nullInputStream(), System.out, () -> { });
            app.shutdown();
        }
    }
}
