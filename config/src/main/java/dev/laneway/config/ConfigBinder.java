package dev.laneway.config;

import dev.laneway.config.YamlNode.MapNode;
import dev.laneway.config.YamlNode.ScalarNode;
import dev.laneway.core.SessionScope;
import dev.laneway.core.SessionScope.DmScope;
import dev.laneway.core.SessionScope.GroupScope;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Turns the located YAML tree into a {@link LanewayConfig}: the top level and the small sections
 * here, {@code agents}, {@code messages} and {@code channels} in their own binders. Every problem
 * goes to {@link Problems}; the result is only meaningful when there are none.
 */
final class ConfigBinder {

    private ConfigBinder() {
    }

    static LanewayConfig bind(MapNode rootNode, Problems problems) {
        Section root = Section.root(rootNode, problems, ConfigKeys.ROOT.keyNames());
        ProvidersBinder.Providers providers = ProvidersBinder.bind(root.openSection(ConfigKeys.PROVIDERS.name()));
        AgentsConfig agents = AgentsBinder.bind(root.section(ConfigKeys.AGENTS), providers);
        ChannelsConfig channels = ChannelsBinder.bind(root.section(ConfigKeys.CHANNELS));
        return new LanewayConfig(
                gateway(root.section(ConfigKeys.GATEWAY)),
                session(root.section(ConfigKeys.SESSION)),
                lanes(root.openSection(ConfigKeys.LANES.name())),
                agents,
                MessagesBinder.bind(root.section(ConfigKeys.MESSAGES)),
                commands(root.section(ConfigKeys.COMMANDS)),
                channels,
                SchedulingBinder.bind(root.section(ConfigKeys.SCHEDULING)),
                SchedulesBinder.bind(root, channels, agents),
                providers.valid(),
                AttachmentsBinder.bind(root.section(ConfigKeys.ATTACHMENTS)));
    }

    private static GatewayConfig gateway(Section gateway) {
        KeySpec.Obj spec = ConfigKeys.GATEWAY;
        KeySpec.Obj admissionSpec = spec.obj("admission");
        Section admission = gateway.section(admissionSpec);
        GatewayConfig.Store store = StoreBinder.bind(gateway.section(ConfigKeys.STORE));
        return new GatewayConfig(
                dataDir(gateway, Path.of((String) spec.leaf("dataDir").defaultValue())),
                HttpBinder.bind(gateway.section(ConfigKeys.HTTP_SERVER)),
                new GatewayConfig.Admission(admission.integer(admissionSpec.leaf("maxPendingRuns"))),
                gateway.duration(spec.leaf("shutdownGraceMs")),
                store,
                FleetBinder.bind(gateway.section(ConfigKeys.FLEET), store.kind()));
    }

    private static Path dataDir(Section gateway, Path defaultValue) {
        String text = nonBlank(gateway, "dataDir", null);
        if (text == null) {
            return defaultValue;
        }
        try {
            return Path.of(text);
        } catch (InvalidPathException e) {
            gateway.problem("dataDir", "is not a valid path: " + e.getReason());
            return defaultValue;
        }
    }

    private static SessionScope session(Section session) {
        KeySpec.Obj spec = ConfigKeys.SESSION;
        return new SessionScope(
                session.choice(spec.leaf("dmScope"), DmScope.PER_PEER, ConfigBinder::dmScope),
                session.choice(spec.leaf("groupScope"), GroupScope.THREAD, ConfigBinder::groupScope));
    }

    private static Optional<DmScope> dmScope(String raw) {
        return Optional.ofNullable(switch (raw.trim().toLowerCase(Locale.ROOT)) {
            case "per-peer" -> DmScope.PER_PEER;
            case "main" -> DmScope.MAIN;
            default -> null;
        });
    }

    private static Optional<GroupScope> groupScope(String raw) {
        return Optional.ofNullable(switch (raw.trim().toLowerCase(Locale.ROOT)) {
            case "thread" -> GroupScope.THREAD;
            case "chat" -> GroupScope.CHAT;
            case "sender" -> GroupScope.SENDER;
            default -> null;
        });
    }

    /** {@code lanes:} {@code warnAfterMs}, and every other key is a lane with {@code maxConcurrent}. */
    private static LanesConfig lanes(Section lanes) {
        KeySpec.Leaf warnAfterMs = (KeySpec.Leaf) ConfigKeys.LANES.fixed().getFirst();
        Duration warnAfter = lanes.duration(warnAfterMs);
        Map<String, Integer> caps = new LinkedHashMap<>(LanesConfig.DEFAULT_CAPS);
        for (String name : lanes.keys()) {
            if (name.equals(warnAfterMs.name())) {
                continue;
            }
            if (ConfigKeys.LANES.forbidden().contains(name)) {
                lanes.problemAtKey(name, "the main lane's cap is agents.defaults.maxConcurrent, set it there");
            } else if (lanes.value(name) instanceof ScalarNode s && !s.isNull()
                    && Suggestions.closest(name, List.of("warnAfterMs")).isPresent()) {
                lanes.problemAtKey(name, "unknown key, did you mean \"warnAfterMs\"?");
            } else {
                Section lane = lanes.section(ConfigKeys.LANE.named(name));
                caps.put(name, lane.integer(ConfigKeys.LANE.leaf("maxConcurrent"), caps.getOrDefault(name, 1)));
            }
        }
        return new LanesConfig(warnAfter, caps);
    }

    private static CommandsConfig commands(Section commands) {
        Section allowFrom = commands.channelSection("allowFrom");
        Map<String, List<String>> ids = new LinkedHashMap<>();
        for (String channel : allowFrom.knownKeys()) {
            ids.put(channel, allowFrom.stringList(channel));
        }
        return new CommandsConfig(ids);
    }

    /** A string that, when present, is not blank. */
    static String nonBlank(Section section, String key, String defaultValue) {
        String value = section.string(key, null);
        if (value == null) {
            return defaultValue;
        }
        if (value.isBlank()) {
            section.problem(key, "must not be empty");
            return defaultValue;
        }
        return value;
    }
}
