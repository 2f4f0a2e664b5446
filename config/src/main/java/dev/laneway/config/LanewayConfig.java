package dev.laneway.config;

import dev.laneway.core.agent.settings.AttachmentSettings;
import dev.laneway.core.agent.settings.ProviderSettings;
import dev.laneway.core.scheduling.SchedulingSettings;
import dev.laneway.core.SessionScope;
import dev.laneway.core.engine.GatewaySettings;
import dev.laneway.core.jobs.ScheduledJob;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The whole configuration file, validated, with every default filled in. Immutable; built by
 * {@link ConfigLoader}, printed by {@link ConfigPrinter}. Secrets are {@link Secret}s, so
 * {@link #toString()} is safe to log.
 *
 * @param session   {@code session.dmScope} and {@code session.groupScope}
 * @param schedules {@code schedules:}, the scheduled jobs in file order (docs/configuration.md §14)
 * @param providers {@code providers:} the named model endpoints and their limits, by name in file order
 *                  (docs/configuration.md §15)
 * @param attachments {@code attachments:} fetch limits, inlining, transcription (docs/configuration.md §16)
 */
public record LanewayConfig(GatewayConfig gateway, SessionScope session, LanesConfig lanes, AgentsConfig agents,
                            MessagesConfig messages, CommandsConfig commands, ChannelsConfig channels,
                            SchedulingSettings scheduling, List<ScheduledJob> schedules,
                            Map<String, ProviderSettings> providers, AttachmentSettings attachments) {

    private static final LanewayConfig DEFAULTS = new LanewayConfig(GatewayConfig.DEFAULTS, SessionScope.DEFAULTS,
            LanesConfig.DEFAULTS, AgentsConfig.DEFAULTS, MessagesConfig.DEFAULTS, CommandsConfig.DEFAULTS,
            ChannelsConfig.DEFAULTS, SchedulingSettings.defaults(), List.of(), Map.of(),
            AttachmentSettings.DEFAULTS);

    public LanewayConfig {
        Objects.requireNonNull(gateway, "gateway");
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(lanes, "lanes");
        Objects.requireNonNull(agents, "agents");
        Objects.requireNonNull(messages, "messages");
        Objects.requireNonNull(commands, "commands");
        Objects.requireNonNull(channels, "channels");
        Objects.requireNonNull(scheduling, "scheduling");
        schedules = List.copyOf(schedules);
        providers = Immutable.orderedMap(providers);
        Objects.requireNonNull(attachments, "attachments");
    }

    /** A configuration with the default {@code attachments:}. */
    public LanewayConfig(GatewayConfig gateway, SessionScope session, LanesConfig lanes, AgentsConfig agents,
                         MessagesConfig messages, CommandsConfig commands, ChannelsConfig channels,
                         SchedulingSettings scheduling, List<ScheduledJob> schedules,
                         Map<String, ProviderSettings> providers) {
        this(gateway, session, lanes, agents, messages, commands, channels, scheduling, schedules, providers,
                AttachmentSettings.DEFAULTS);
    }

    /** A configuration without named providers. */
    public LanewayConfig(GatewayConfig gateway, SessionScope session, LanesConfig lanes, AgentsConfig agents,
                         MessagesConfig messages, CommandsConfig commands, ChannelsConfig channels,
                         SchedulingSettings scheduling, List<ScheduledJob> schedules) {
        this(gateway, session, lanes, agents, messages, commands, channels, scheduling, schedules, Map.of());
    }

    /** A configuration with the default scheduling, no scheduled jobs and no named providers. */
    public LanewayConfig(GatewayConfig gateway, SessionScope session, LanesConfig lanes, AgentsConfig agents,
                         MessagesConfig messages, CommandsConfig commands, ChannelsConfig channels) {
        this(gateway, session, lanes, agents, messages, commands, channels, SchedulingSettings.defaults(), List.of(),
                Map.of());
    }

    /** What an empty file means: console, echo agent {@code assistant}, the defaults (docs/configuration.md §12). */
    public static LanewayConfig defaults() {
        return DEFAULTS;
    }

    /** The settings the gateway engine runs with; fields the file does not cover keep their defaults. */
    public GatewaySettings toGatewaySettings() {
        return GatewaySettingsMapper.map(this);
    }
}
