package dev.laneway.config;

import dev.laneway.core.engine.GatewaySettings;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Maps the file's settings onto the engine's {@link GatewaySettings}. Fields the file does not
 * cover (retries, backoff, interrupt grace, dedupe window) keep the builder's defaults.
 */
final class GatewaySettingsMapper {

    private GatewaySettingsMapper() {
    }

    static GatewaySettings map(LanewayConfig config) {
        MessagesConfig.Queue queue = config.messages().queue();
        MessagesConfig.Inbound inbound = config.messages().inbound();
        return GatewaySettings.builder()
                .queueDefaults(queue.settings())
                .queueByChannel(queue.byChannel())
                .queueMaxWait(queue.maxWait())
                .queueCapPerSender(queue.capPerSender())
                .queueTtl(queue.ttl())
                .notifyDrops(queue.notifyDrops())
                .inboundDebounce(inbound.debounce())
                .inboundMaxWait(inbound.maxWait())
                .inboundByChannel(inbound.byChannel())
                .steerScope(config.messages().steerScope())
                .maxAnswerChars(config.messages().maxAnswerChars())
                .sessionScope(config.session())
                .mainMaxConcurrent(config.agents().maxConcurrent())
                .laneCaps(config.lanes().caps())
                .laneWarnAfter(config.lanes().warnAfter())
                .maxPendingRuns(config.gateway().admission().maxPendingRuns())
                .commandAllowFrom(allowFrom(config.commands()))
                .scheduling(config.scheduling())
                .build();
    }

    private static Map<String, Set<String>> allowFrom(CommandsConfig commands) {
        Map<String, Set<String>> allowFrom = new LinkedHashMap<>();
        commands.allowFrom().forEach((channel, ids) -> allowFrom.put(channel, Set.copyOf(ids)));
        return allowFrom;
    }
}
