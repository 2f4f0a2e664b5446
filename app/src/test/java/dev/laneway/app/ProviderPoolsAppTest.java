package dev.laneway.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The real app with a named provider pool (docs/behaviour.md §14) in front of the fake model server:
 * the agent calls through the pool, tokens are counted by agent and tenant, {@code /status} shows the
 * pool without its key, and an outage opens the circuit so the next run fails at once.
 */
class ProviderPoolsAppTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aNamedPool_countsTokens_showsInStatus_andFailsFastOnceItsCircuitOpens() throws Exception {
        try (FakeModelServer model = new FakeModelServer()) {
            String yaml = """
                    gateway: { http: { enabled: true, bind: 127.0.0.1, port: 0 } }
                    providers:
                      hosted:
                        baseUrl: %s
                        apiKey: ${POOL_KEY}
                        model: test-model
                        maxConcurrent: 2
                        circuit: { failures: 3, window: 60s, openFor: 1h }   # hello + 2 failures: 2 of 3 failed
                    agents:
                      list:
                        assistant: { provider: openai, endpoint: hosted, maxRetries: 0 }
                    """.formatted(model.baseUrl());
            try (InProcessApp running = new InProcessApp(yaml, Map.of("POOL_KEY", "sk-pool-secret-99"))) {
                running.start();
                running.type("hello");
                running.awaitLine("model says: hello", WAIT);
                assertEquals("Bearer sk-pool-secret-99", model.authorizations().getFirst());
                assertTrue(model.requests().getFirst().contains("\"include_usage\":true"));

                String metrics = running.get("/metrics").body();
                assertTrue(metrics.lines().anyMatch(line -> line.startsWith("laneway_tokens_total{agent=\"assistant\","
                        + "kind=\"prompt\",tenant=\"user:console:") && line.endsWith(" 7.0")), metrics);
                assertTrue(metrics.lines().anyMatch(line -> line.startsWith("laneway_tokens_total{agent=\"assistant\","
                        + "kind=\"completion\",tenant=\"user:console:") && line.endsWith(" 3.0")), metrics);
                assertTrue(metrics.contains("laneway_provider_wait_seconds_count{class=\"interactive\",provider=\"hosted\"}"),
                        "the wait for the pool counts as queue wait");

                String status = running.get("/status").body();
                JsonNode pool = JSON.readTree(status).get("providers").get(0);
                assertEquals("hosted", pool.get("name").asText());
                assertEquals(2, pool.get("limit").asInt());
                assertEquals("closed", pool.get("circuit").asText());
                assertFalse(status.contains("sk-pool-secret-99"), "the key is never shown");

                model.failWith(503);
                running.type("first");
                running.awaitLine("⚠️ Sorry, something went wrong while answering. (HTTP 503)", WAIT);
                running.type("second");
                running.awaitLine("⚠️ Sorry, something went wrong while answering. (HTTP 503)", WAIT);
                int requests = model.requests().size();
                running.type("third");
                running.awaitLine("⚠️ Sorry, something went wrong while answering. (provider unavailable)", WAIT);
                assertEquals(requests, model.requests().size(), "failed at once, without calling the provider");

                assertEquals("open", JSON.readTree(running.get("/status").body()).get("providers").get(0)
                        .get("circuit").asText());
                assertTrue(running.get("/metrics").body().lines()
                        .anyMatch(line -> line.equals("laneway_provider_failed_fast_total{provider=\"hosted\"} 1.0")));
            }
        }
    }
}
