package dev.laneway.app.ops;

import dev.laneway.core.engine.Gateway;
import dev.laneway.core.lane.LaneSnapshot;
import dev.laneway.core.lane.Lanes;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * The gauges over a built gateway: configured lanes (not per-session lanes: one series per busy
 * chat would explode cardinality), busy sessions by state, pending messages and their limit, and
 * channel connectivity.
 *
 * <p>Concurrency: {@link #refresh} runs on the scraping thread; it takes one {@link Sample} from
 * the gateway (whose getters are thread-safe) and publishes it through a volatile field. Gauges
 * only read that field, so one scrape is one consistent sample; two concurrent scrapes each
 * publish a complete sample and either may win.
 */
final class GatewayGauges {

    /** The session states the engine reports ({@link Gateway#sessionStates()}). */
    static final List<String> SESSION_STATES = List.of("running", "draining", "debouncing");

    private final Gateway gateway;
    private final Supplier<Map<String, Boolean>> channels;
    private volatile Sample sample;

    GatewayGauges(MeterRegistry registry, Gateway gateway, Supplier<Map<String, Boolean>> channels) {
        this.gateway = gateway;
        this.channels = channels;
        refresh();
        for (String lane : configuredLanes(gateway)) {
            laneGauge(registry, MetricNames.LANE_QUEUED, "Runs waiting for a slot in the lane", lane, LaneSnapshot::queued);
            laneGauge(registry, MetricNames.LANE_ACTIVE, "Runs holding a slot in the lane", lane, LaneSnapshot::active);
            laneGauge(registry, MetricNames.LANE_CAPACITY, "The lane's configured cap", lane, LaneSnapshot::cap);
        }
        for (String state : SESSION_STATES) {
            gauge(MetricNames.SESSIONS, "Busy sessions by state", s -> s.sessions().getOrDefault(state, 0))
                    .tag("state", state).register(registry);
        }
        gauge(MetricNames.PENDING, "Accepted messages not finished yet (the admission counter)", Sample::pending)
                .register(registry);
        int limit = gateway.settings().maxPendingRuns();
        if (limit > 0) {
            Gauge.builder(MetricNames.PENDING_LIMIT, () -> limit)
                    .description("gateway.admission.maxPendingRuns: beyond it messages are rejected busy").register(registry);
        }
        for (String channel : sample.channels().keySet()) {
            gauge(MetricNames.CHANNEL_CONNECTED, "1 when the channel is connected, else 0",
                    s -> Boolean.TRUE.equals(s.channels().get(channel)) ? 1 : 0)
                    .tag("channel", channel).register(registry);
        }
    }

    /** {@code main} and the lanes named in {@code lanes.*}, in that order. */
    static Set<String> configuredLanes(Gateway gateway) {
        Set<String> lanes = new LinkedHashSet<>();
        lanes.add(Lanes.MAIN);
        gateway.settings().laneCaps().keySet().stream().sorted().forEach(lanes::add);
        return lanes;
    }

    /** Takes a fresh sample for the gauges to read. */
    void refresh() {
        Map<String, LaneSnapshot> lanes = new HashMap<>();
        gateway.lanes().forEach(lane -> lanes.put(lane.name(), lane));
        sample = new Sample(lanes, gateway.sessionStates(), gateway.pendingMessages(), channels.get());
    }

    private void laneGauge(MeterRegistry registry, String name, String description, String lane,
                           Function<LaneSnapshot, Integer> field) {
        gauge(name, description, s -> {
            LaneSnapshot snapshot = s.lanes().get(lane);
            return snapshot == null ? 0 : field.apply(snapshot);
        }).tag("lane", lane).register(registry);
    }

    private Gauge.Builder<Supplier<Number>> gauge(String name, String description, ToDoubleFunction<Sample> read) {
        Supplier<Number> value = () -> read.applyAsDouble(sample);
        return Gauge.builder(name, value).description(description);
    }

    /** One scrape's view of the gateway. */
    record Sample(Map<String, LaneSnapshot> lanes, Map<String, Integer> sessions, int pending,
                  Map<String, Boolean> channels) {
    }
}
