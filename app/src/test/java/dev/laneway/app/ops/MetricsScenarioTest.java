package dev.laneway.app.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueOverride;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.engine.GatewaySettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Metric values move as a scripted burst runs through: a collect queue with cap 2 that summarizes
 * ({@code test}) or drops old ({@code other}) overflow, and a global admission cap that rejects
 * the last newcomer as busy. Asserted on the Prometheus text that {@code GET /metrics} serves.
 */
class MetricsScenarioTest {

    private final OpsFixture ops = new OpsFixture(GatewaySettings.builder()
            .queueDefaults(new QueueSettings(QueueMode.COLLECT, Duration.ofSeconds(1), 2, DropPolicy.SUMMARIZE))
            .queueByChannel(Map.of("other", new QueueOverride(null, null, null, DropPolicy.OLD)))
            .maxPendingRuns(7)
            .build(), List.of("test", "other"));

    @AfterEach
    void stop() {
        ops.close();
    }

    /** Three runs in flight, two queues overflowing, admission full, one newcomer refused. */
    private void burst() {
        ops.dm("test", "alice", "run");
        for (String text : List.of("1", "2", "3", "4")) {
            ops.dm("test", "alice", text);
        }
        ops.dm("other", "bob", "run");
        for (String text : List.of("a", "b", "c", "d")) {
            ops.dm("other", "bob", text);
        }
        ops.dm("test", "carol", "run");
        ops.dm("test", "dave", "refused: 7 messages are pending");
    }

    @Test
    void dropsAndRejectionsCount_andTheGaugesShowTheBurstInFlight() {
        burst();
        String text = ops.get("/metrics").body();

        assertTrue(text.contains("laneway_inbound_messages_total{channel=\"test\",disposition=\"SUMMARIZED\"} 2.0\n"), text);
        assertEquals(2.0, inbound(text, "other", Disposition.DROPPED_OLD));
        assertEquals(1.0, inbound(text, "test", Disposition.REJECTED_BUSY));
        assertEquals(0.0, inbound(text, "other", Disposition.REJECTED_BUSY));
        assertEquals(7.0, PrometheusText.value(text, "laneway_pending_messages"));
        assertEquals(7.0, PrometheusText.value(text, "laneway_pending_messages_limit"));
        assertEquals(3.0, PrometheusText.value(text, "laneway_lane_active{lane=\"main\"}"));
        assertEquals(0.0, PrometheusText.value(text, "laneway_lane_queued{lane=\"main\"}"));
        assertEquals(3.0, PrometheusText.value(text, "laneway_sessions{state=\"running\"}"));
        assertEquals(1.0, PrometheusText.value(text, "laneway_outbound_messages_total{channel=\"test\"}"), "the busy notice");
        assertTrue(!text.contains("lane=\"session:"), "no per-session lane series");
    }

    @Test
    void afterTheBurstDrains_everyMessageIsCountedOnce_andRunsTimersAndDrainsMove() {
        burst();
        ops.time.advanceMillis(2000);
        ops.completeOpenRuns();
        assertEquals(2, ops.agent.openRuns().size(), "the debounce ran out during the runs, so both queues drain at once");
        ops.completeOpenRuns();
        ops.gateway.rateLimited("test");
        String text = ops.get("/metrics").body();

        for (String channel : List.of("test", "other")) {
            for (Disposition disposition : Disposition.values()) {
                long recorded = ops.dispositions.entries().stream()
                        .filter(e -> e.message().channel().equals(channel) && e.disposition() == disposition).count();
                assertEquals(recorded, inbound(text, channel, disposition), channel + " " + disposition);
            }
        }
        assertEquals(2.0, inbound(text, "test", Disposition.RAN));
        assertEquals(2.0, inbound(text, "test", Disposition.COLLECTED));
        assertEquals(2.0, inbound(text, "other", Disposition.COLLECTED));
        assertEquals(5.0, PrometheusText.value(text, "laneway_runs_total{agent=\"scripted\",outcome=\"completed\"}"));
        assertEquals(5.0, PrometheusText.value(text, "laneway_run_duration_seconds_count{agent=\"scripted\"}"));
        assertEquals(6.0, PrometheusText.value(text, "laneway_run_duration_seconds_sum{agent=\"scripted\"}"),
                "three 2 s runs, then two drained runs completed at once");
        assertEquals(5.0, PrometheusText.value(text, "laneway_lane_wait_seconds_count{lane=\"main\"}"));
        assertEquals(2.0, PrometheusText.value(text, "laneway_drain_delay_seconds_count"));
        assertEquals(4.0, PrometheusText.value(text, "laneway_drain_delay_seconds_sum"),
                "each drain came 2 s after its last message");
        assertEquals(1.0, PrometheusText.value(text, "laneway_outbound_rate_limited_total{channel=\"test\"}"));
        assertEquals(0.0, PrometheusText.value(text, "laneway_pending_messages"));
        assertEquals(0.0, PrometheusText.value(text, "laneway_lane_active{lane=\"main\"}"));
        assertEquals(0.0, PrometheusText.value(text, "laneway_sessions{state=\"running\"}"));
    }

    @Test
    void aLaneWaitLandsInTheHistogramBuckets() {
        OpsFixture single = new OpsFixture(GatewaySettings.builder().mainMaxConcurrent(1).build());
        try {
            single.dm("alice", "first");
            single.dm("bob", "waits 3 s for main");
            single.time.advanceMillis(3000);
            single.completeOpenRuns();
            single.completeOpenRuns();
            String text = single.get("/metrics").body();
            assertEquals(1.0, PrometheusText.value(text, "laneway_lane_wait_seconds_bucket{lane=\"main\",le=\"2.5\"}"),
                    "only the first grant waited less than 2.5 s");
            assertEquals(2.0, PrometheusText.value(text, "laneway_lane_wait_seconds_bucket{lane=\"main\",le=\"5.0\"}"));
            assertEquals(3.0, PrometheusText.value(text, "laneway_lane_wait_seconds_sum{lane=\"main\"}"));
        } finally {
            single.close();
        }
    }

    private static double inbound(String text, String channel, Disposition disposition) {
        return PrometheusText.value(text,
                "laneway_inbound_messages_total{channel=\"" + channel + "\",disposition=\"" + disposition.name() + "\"}");
    }
}
