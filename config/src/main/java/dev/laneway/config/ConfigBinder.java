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

    private static final int MAX = Integer.MAX_VALUE;

    private ConfigBinder() {
    }

    static LanewayConfig bind(MapNode rootNode, Problems problems) {
        Section root = Section.root(rootNode, problems,
                List.of("gateway", "session", "lanes", "agents", "messages", "commands", "channels", "scheduling",
                        SchedulesBinder.KEY, "providers"));
        ProvidersBinder.Providers providers = ProvidersBinder.bind(root.openSection("providers"));
        AgentsConfig agents = AgentsBinder.bind(root.section("agents", "defaults", "list", "bindings"), providers);
        ChannelsConfig channels = ChannelsBinder.bind(root.section("channels", ChannelsConfig.NAMES.toArray(String[]::new)));
        return new LanewayConfig(
                gateway(root.section("gateway", "dataDir", "http", "admission", "shutdownGraceMs", "store")),
                session(root.section("session", "dmScope", "groupScope")),
                lanes(root.openSection("lanes")),
                agents,
                MessagesBinder.bind(root.section("messages", "queue", "inbound", "steer", "maxAnswerChars")),
                commands(root.section("commands", "allowFrom")),
                channels,
                SchedulingBinder.bind(root.section("scheduling", SchedulingBinder.KEYS.toArray(String[]::new))),
                SchedulesBinder.bind(root, channels, agents),
                providers.valid());
    }

    private static GatewayConfig gateway(Section gateway) {
        GatewayConfig d = GatewayConfig.DEFAULTS;
        Section admission = gateway.section("admission", "maxPendingRuns");
        return new GatewayConfig(
                dataDir(gateway, d.dataDir()),
                HttpBinder.bind(gateway.section("http", HttpBinder.KEYS.toArray(String[]::new))),
                new GatewayConfig.Admission(
                        admission.integer("maxPendingRuns", d.admission().maxPendingRuns(), 0, MAX)),
                gateway.duration("shutdownGraceMs", d.shutdownGrace()),
                StoreBinder.bind(gateway.section("store", StoreBinder.KEYS.toArray(String[]::new))));
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
        return new SessionScope(
                session.choice("dmScope", DmScope.PER_PEER, ConfigBinder::dmScope, "per-peer, main"),
                session.choice("groupScope", GroupScope.THREAD, ConfigBinder::groupScope, "thread, chat, sender"));
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
        Duration warnAfter = lanes.duration("warnAfterMs", LanesConfig.DEFAULTS.warnAfter());
        Map<String, Integer> caps = new LinkedHashMap<>(LanesConfig.DEFAULT_CAPS);
        for (String name : lanes.keys()) {
            if (name.equals("warnAfterMs")) {
                continue;
            }
            if (name.equals("main")) {
                lanes.problemAtKey(name, "the main lane's cap is agents.defaults.maxConcurrent, set it there");
            } else if (lanes.value(name) instanceof ScalarNode s && !s.isNull()
                    && Suggestions.closest(name, List.of("warnAfterMs")).isPresent()) {
                lanes.problemAtKey(name, "unknown key, did you mean \"warnAfterMs\"?");
            } else {
                Section lane = lanes.section(name, "maxConcurrent");
                caps.put(name, lane.integer("maxConcurrent", caps.getOrDefault(name, 1), 1, MAX));
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
