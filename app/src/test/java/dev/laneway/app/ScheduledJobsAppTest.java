package dev.laneway.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@link GatewayApp} runs {@code schedules:} (docs/behaviour.md §12): a job fires, its
 * named agent answers in the target chat, {@code GET /status} lists it, and its last fire outlives
 * a restart (the next start keeps its phase).
 */
class ScheduledJobsAppTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private String yaml(String every) {
        return """
                gateway:
                  dataDir: %s
                  http: { enabled: true, bind: 127.0.0.1, port: 0 }
                agents:
                  list:
                    assistant: { provider: echo }
                    digest: { provider: echo }
                schedules:
                  - id: pulse
                    every: %s
                    target: { channel: console, chat: console }
                    prompt: ping
                    agent: digest
                """.formatted(dir.resolve("data"), every);
    }

    private static JsonNode job(InProcessApp app) throws Exception {
        return JSON.readTree(app.get("/status").body()).get("jobs").get(0);
    }

    @Test
    void aJobFires_itsAgentAnswersInTheChat_statusListsIt_andItsLastFireOutlivesARestart() throws Exception {
        Instant lastSeen;
        try (InProcessApp running = new InProcessApp(yaml("1s"), Map.of())) {
            running.start();
            running.awaitLine("echo: ping", WAIT);
            JsonNode job = job(running);
            assertEquals("pulse", job.get("id").asText());
            assertEquals("console chat console", job.get("target").asText());
            assertFalse(job.get("lastFire").isNull(), job.toString());
            lastSeen = Instant.parse(job.get("lastFire").asText());
            String metrics = running.get("/metrics").body();
            assertTrue(metrics.matches("(?s).*laneway_runs_total\\{agent=\"digest\",outcome=\"completed\"} [1-9].*"),
                    "the job's own agent answered");
            assertTrue(metrics.contains("laneway_runs_total{agent=\"assistant\",outcome=\"completed\"} 0.0"),
                    "not the gateway's agent");
        }
        try (InProcessApp restarted = new InProcessApp(yaml("1h"), Map.of())) {
            restarted.start();
            JsonNode job = job(restarted);
            Instant last = Instant.parse(job.get("lastFire").asText());
            assertFalse(last.isBefore(lastSeen), "the stored last fire was read back");
            assertEquals(last.plus(Duration.ofHours(1)).toString(), job.get("nextFire").asText(),
                    "the next fire keeps the stored fire's phase");
        }
    }
}
