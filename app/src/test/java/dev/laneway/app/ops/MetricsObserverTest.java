package dev.laneway.app.ops;

import dev.laneway.core.scheduling.PriorityClass;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.engine.GatewayObserver;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The observer on its own: series for known names start at zero, new names get series on first use. */
class MetricsObserverTest {

    private final MetricsObserver metrics = new MetricsObserver(List.of("telegram"), List.of("assistant"));

    @Test
    void everyDispositionOfAKnownChannel_isExportedAtZero_beforeAnyMessage() {
        String text = metrics.scrape();
        for (Disposition disposition : Disposition.values()) {
            assertEquals(0.0, PrometheusText.value(text,
                    "laneway_inbound_messages_total{channel=\"telegram\",disposition=\"" + disposition.name() + "\"}"));
        }
        for (String outcome : List.of("completed", "failed", "aborted", "reported")) {
            assertEquals(0.0, PrometheusText.value(text, "laneway_runs_total{agent=\"assistant\",outcome=\"" + outcome + "\"}"));
        }
        assertEquals(0.0, PrometheusText.value(text, "laneway_agent_retries_total{agent=\"assistant\"}"));
        assertEquals(0.0, PrometheusText.value(text, "laneway_agent_empty_answers_total{agent=\"assistant\"}"));
        assertEquals(0.0, PrometheusText.value(text, "laneway_outbound_rate_limited_total{channel=\"telegram\"}"));
        assertEquals(0.0, PrometheusText.value(text, "laneway_outbound_failed_total{channel=\"telegram\"}"));
        assertEquals(0.0, PrometheusText.value(text, "laneway_drain_delay_seconds_count"));
    }

    @Test
    void withAnInstanceTag_everySeriesCarriesIt_andWithoutOneNoneDoes() {
        MetricsObserver fleet = new MetricsObserver(List.of("telegram"), List.of("assistant"),
                Map.of("instance", "host-1-abcdef"));
        fleet.sendFailed("telegram");
        fleet.agentRetried("later");
        String text = fleet.scrape();
        assertEquals(1.0, PrometheusText.value(text,
                "laneway_outbound_failed_total{channel=\"telegram\",instance=\"host-1-abcdef\"}"));
        assertEquals(1.0, PrometheusText.value(text,
                "laneway_agent_retries_total{agent=\"later\",instance=\"host-1-abcdef\"}"), "a meter made later too");
        List<String> samples = text.lines().filter(line -> !line.startsWith("#") && !line.isBlank()).toList();
        assertFalse(samples.isEmpty());
        for (String sample : samples) {
            assertTrue(sample.contains("instance=\"host-1-abcdef\""), sample);
        }
        assertFalse(metrics.scrape().contains("instance="), "one instance: no instance label");
    }

    @Test
    void aFailedSend_countsInOutboundFailed_notInOutboundMessages() {
        metrics.sendFailed("telegram");
        metrics.sendFailed("discord");
        String text = metrics.scrape();
        assertEquals(1.0, PrometheusText.value(text, "laneway_outbound_failed_total{channel=\"telegram\"}"));
        assertEquals(1.0, PrometheusText.value(text, "laneway_outbound_failed_total{channel=\"discord\"}"));
        assertEquals(0.0, PrometheusText.value(text, "laneway_outbound_messages_total{channel=\"telegram\"}"));
    }

    @Test
    void aChannelOrAgentSeenLater_getsItsSeriesOnFirstUse() {
        metrics.recorded(InboundMessage.builder("slack").senderId("u").chatId("c").text("x").build(), Disposition.DENIED);
        metrics.agentRetried("other");
        metrics.agentRetried("other");
        metrics.emptyAnswer("other");
        metrics.runFinished("other", Duration.ZERO, Duration.ofMillis(1500), GatewayObserver.RunResult.FAILED);
        String text = metrics.scrape();
        assertEquals(1.0, PrometheusText.value(text, "laneway_inbound_messages_total{channel=\"slack\",disposition=\"DENIED\"}"));
        assertEquals(0.0, PrometheusText.value(text, "laneway_inbound_messages_total{channel=\"slack\",disposition=\"RAN\"}"));
        assertEquals(2.0, PrometheusText.value(text, "laneway_agent_retries_total{agent=\"other\"}"));
        assertEquals(1.0, PrometheusText.value(text, "laneway_agent_empty_answers_total{agent=\"other\"}"));
        assertEquals(1.0, PrometheusText.value(text, "laneway_runs_total{agent=\"other\",outcome=\"failed\"}"));
        assertEquals(1.5, PrometheusText.value(text, "laneway_run_duration_seconds_sum{agent=\"other\"}"));
    }

    @Test
    void fallbacksAreCountedByAgentPairAndReason() {
        metrics.fallback("main", "local", "unavailable");
        metrics.fallback("main", "local", "unavailable");
        metrics.fallback("main", "local", "degrade");
        metrics.fallback("local", "tiny", "retries_exhausted");
        String text = metrics.scrape();
        assertEquals(2.0, PrometheusText.value(text,
                "laneway_agent_fallbacks_total{from=\"main\",reason=\"unavailable\",to=\"local\"}"));
        assertEquals(1.0, PrometheusText.value(text,
                "laneway_agent_fallbacks_total{from=\"main\",reason=\"degrade\",to=\"local\"}"));
        assertEquals(1.0, PrometheusText.value(text,
                "laneway_agent_fallbacks_total{from=\"local\",reason=\"retries_exhausted\",to=\"tiny\"}"));
    }

    @Test
    void theSchedulersGrantsPromotionsAndAdmissionsAreCountedByClass() {
        String before = metrics.scrape();
        assertEquals(0.0, PrometheusText.value(before, "laneway_queue_wait_seconds_count{class=\"interactive\"}"));
        metrics.granted(PriorityClass.BACKGROUND, PriorityClass.NORMAL, "chat:telegram:1", Duration.ofSeconds(3),
                Duration.ofSeconds(1));
        metrics.granted(PriorityClass.INTERACTIVE, PriorityClass.INTERACTIVE, "user:telegram:2", Duration.ofSeconds(1),
                Duration.ofSeconds(4));
        metrics.promoted(PriorityClass.BACKGROUND, PriorityClass.NORMAL);
        metrics.admission(PriorityClass.INTERACTIVE, "defer", "over_budget");
        String text = metrics.scrape();
        assertEquals(1.0, PrometheusText.value(text, "laneway_queue_wait_seconds_count{class=\"background\"}"));
        assertEquals(3.0, PrometheusText.value(text, "laneway_queue_wait_seconds_sum{class=\"background\"}"));
        assertEquals(1.0, PrometheusText.value(text,
                "laneway_scheduled_runs_total{class=\"normal\",tenant=\"chat:telegram:1\"}"));
        assertEquals(1.0, PrometheusText.value(text, "laneway_aging_promotions_total{from=\"background\",to=\"normal\"}"));
        assertEquals(1.0, PrometheusText.value(text,
                "laneway_admission_total{action=\"defer\",class=\"interactive\",reason=\"over_budget\"}"));
        assertEquals(2.0, PrometheusText.value(text, "laneway_wait_estimate_error_seconds_sum{class=\"background\"}"));
        assertEquals(1.0, PrometheusText.value(text, "laneway_wait_estimates_total{class=\"background\",direction=\"under\"}"));
        assertEquals(1.0, PrometheusText.value(text, "laneway_wait_estimates_total{class=\"interactive\",direction=\"over\"}"));
    }

    @Test
    void tenantSeriesAreBounded() {
        for (int i = 0; i < SchedulingMeters.MAX_TENANT_SERIES * 4; i++) {
            metrics.granted(PriorityClass.INTERACTIVE, PriorityClass.INTERACTIVE, "user:telegram:" + i, Duration.ZERO,
                    Duration.ZERO);
        }
        String text = metrics.scrape();
        long series = text.lines().filter(line -> line.startsWith("laneway_scheduled_runs_total{")).count();
        assertTrue(series <= SchedulingMeters.MAX_TENANT_SERIES * PriorityClass.COUNT + 1, "series: " + series);
        assertTrue(PrometheusText.value(text, "laneway_scheduled_runs_total{class=\"interactive\",tenant=\"other\"}") > 0);
    }

    @Test
    void withoutABoundGateway_thereAreNoGauges_andBindingTwiceIsAnError() {
        assertFalse(PrometheusText.has(metrics.scrape(), "laneway_pending_messages"));
        OpsFixture ops = new OpsFixture(dev.laneway.core.engine.GatewaySettings.defaults());
        try {
            assertThrows(IllegalStateException.class, () -> ops.metrics.bind(ops.gateway, Map::of));
        } finally {
            ops.close();
        }
    }
}
