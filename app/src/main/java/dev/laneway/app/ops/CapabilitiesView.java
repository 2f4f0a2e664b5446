package dev.laneway.app.ops;

import dev.laneway.core.QueueSettings;
import dev.laneway.core.engine.GatewaySettings;
import dev.laneway.core.lane.Lanes;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The body of {@code GET /capabilities}: the effective limits (docs/architecture.md §8), shaped as
 * {@code {"limits": {...}}}. A disabled cap or bound is {@code null}, never 0 or a sentinel.
 * Built from {@link GatewaySettings}, which holds no secret.
 */
public record CapabilitiesView(Limits limits) {

    public static CapabilitiesView of(GatewaySettings settings) {
        Map<String, Integer> lanes = new TreeMap<>(settings.laneCaps());
        lanes.put(Lanes.MAIN, settings.mainMaxConcurrent());
        Map<String, QueueLimits> byChannel = new TreeMap<>();
        settings.queueByChannel().forEach((channel, override) ->
                byChannel.put(channel, QueueLimits.of(settings.queueDefaults().with(override), settings)));
        return new CapabilitiesView(new Limits(
                settings.mainMaxConcurrent(),
                settings.maxPendingRuns() == 0 ? null : settings.maxPendingRuns(),
                Collections.unmodifiableMap(lanes),
                QueueLimits.of(settings.queueDefaults(), settings),
                Collections.unmodifiableMap(byChannel),
                settings.queueTtl().toMillis(),
                new InboundLimits(settings.inboundDebounce().toMillis(),
                        boundOrNull(settings.inboundMaxWaitFor(settings.inboundDebounce())))));
    }

    private static Long boundOrNull(Duration bound) {
        return bound.isZero() ? null : bound.toMillis();
    }

    /**
     * @param maxConcurrent  {@code agents.defaults.maxConcurrent}: the {@code main} lane's cap
     * @param maxPendingRuns {@code gateway.admission.maxPendingRuns}, null when disabled
     * @param lanes          lane name -> cap, {@code main} included
     * @param queue          {@code messages.queue} defaults
     * @param queueByChannel channel -> its effective queue settings ({@code messages.queue.byChannel})
     * @param queueTtlMs     {@code messages.queue.ttl}: queued messages older than this are not run after a restart
     * @param inbound        {@code messages.inbound} debounce for idle sessions
     */
    public record Limits(int maxConcurrent, Integer maxPendingRuns, Map<String, Integer> lanes, QueueLimits queue,
                         Map<String, QueueLimits> queueByChannel, long queueTtlMs, InboundLimits inbound) {
    }

    /**
     * Effective queue settings.
     *
     * @param capPerSender a group sender's part of the cap (docs/behaviour.md §5.4); null when there is none
     * @param maxWaitMs bound on a drain's total wait; null when there is none
     */
    public record QueueLimits(String mode, long debounceMs, int cap, Integer capPerSender, String drop,
                              Long maxWaitMs) {

        /** The limits of {@code settings} under the gateway's {@code maxWait} and {@code capPerSender}. */
        static QueueLimits of(QueueSettings settings, GatewaySettings gateway) {
            // maxWait: null means 10 x the debounce, zero means no bound
            Duration maxWait = gateway.queueMaxWait();
            Duration effective = maxWait != null ? maxWait : settings.debounce().multipliedBy(10);
            int part = gateway.capPerSenderFor(settings.cap());
            return new QueueLimits(settings.mode().id(), settings.debounce().toMillis(), settings.cap(),
                    part == 0 ? null : part, settings.drop().id(), boundOrNull(effective));
        }
    }

    /** @param maxWaitMs bound on the inbound debounce; null when there is none */
    public record InboundLimits(long debounceMs, Long maxWaitMs) {
    }
}
