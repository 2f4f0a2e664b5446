package dev.laneway.app.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.laneway.core.engine.GatewaySettings;
import dev.laneway.core.jobs.Every;
import dev.laneway.core.jobs.IfBusy;
import dev.laneway.core.jobs.JobSubmitter;
import dev.laneway.core.jobs.JobTarget;
import dev.laneway.core.jobs.ScheduledJob;
import dev.laneway.core.jobs.ScheduledJobs;
import dev.laneway.core.store.InMemorySessionStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code GET /status} lists the scheduled jobs; {@code /metrics} counts their fires (docs/architecture.md §8). */
class ScheduledJobsStatusTest {

    private final OpsFixture ops = new OpsFixture(GatewaySettings.defaults());

    @AfterEach
    void close() {
        ops.close();
    }

    @Test
    void statusListsEachJobWithItsTargetNextAndLastFire_andMetricsCountItsFires() throws Exception {
        Instant start = ops.time.instant();
        ScheduledJob job = new ScheduledJob("pulse", new Every(Duration.ofMinutes(30)), null,
                new JobTarget("test", "group", "7"), "ping", null, IfBusy.WAIT, Duration.ZERO);
        ScheduledJobs jobs = new ScheduledJobs(List.of(job), new InMemorySessionStore(), JobSubmitter.of(ops.gateway),
                ops.time, ops.time, Runnable::run, ops.metrics::scheduleFired);
        jobs.start();
        OpsEndpoints endpoints = new OpsEndpoints(ops.gateway, ops.metrics, Map::of, () -> true, jobs::status);

        JsonNode before = new ObjectMapper().readTree(endpoints.status().body()).get("jobs").get(0);
        assertEquals("pulse", before.get("id").asText());
        assertEquals("test chat group thread 7", before.get("target").asText());
        assertEquals("every 30m", before.get("schedule").asText());
        assertEquals(start.plus(Duration.ofMinutes(30)).toString(), before.get("nextFire").asText());
        assertTrue(before.get("lastFire").isNull());

        ops.time.advance(Duration.ofMinutes(30));
        JsonNode after = new ObjectMapper().readTree(endpoints.status().body()).get("jobs").get(0);
        assertEquals(start.plus(Duration.ofMinutes(30)).toString(), after.get("lastFire").asText());
        assertEquals(start.plus(Duration.ofMinutes(60)).toString(), after.get("nextFire").asText());
        assertEquals(List.of("ping"), ops.agent.prompts());
        assertTrue(ops.metrics.scrape().contains("laneway_schedule_fires_total{job=\"pulse\",outcome=\"posted\"} 1.0"),
                ops.metrics.scrape());
    }
}
