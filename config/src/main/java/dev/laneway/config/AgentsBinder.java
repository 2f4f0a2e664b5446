package dev.laneway.config;

import dev.laneway.config.YamlNode.ListNode;
import dev.laneway.config.YamlNode.ScalarNode;
import dev.laneway.config.YamlNode.ScalarNode.Kind;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Binds {@code agents:}: the defaults, and each {@code agents.list} entry by its provider. */
final class AgentsBinder {

    private static final int MAX = Integer.MAX_VALUE;
    private static final String PROVIDERS = String.join(", ", AgentConfig.PROVIDERS);
    private static final Map<String, List<String>> KEYS = Map.of(
            "echo", List.of("provider", "delayMs"),
            "openai", List.of("provider", "baseUrl", "apiKey", "model", "systemPrompt", "stream", "timeoutMs",
                    "maxHistoryMessages", "temperature", "maxTokens", "maxRetries", "tools"),
            "command", List.of("provider", "command", "timeoutMs"));

    private AgentsBinder() {
    }

    static AgentsConfig bind(Section agents) {
        Section defaults = agents.section("defaults", "maxConcurrent", "agent");
        int maxConcurrent = defaults.integer("maxConcurrent", AgentsConfig.DEFAULTS.maxConcurrent(), 1, MAX);
        Section list = agents.openSection("list");
        Map<String, AgentConfig> byName = new LinkedHashMap<>();
        for (String name : list.keys()) {
            agent(list, name).ifPresent(agent -> byName.put(name, agent));
        }
        String defaultAgent = defaultAgent(defaults, list.keys());
        // An empty list runs the echo agent. In a list with problems this only keeps the record
        // valid; the loader throws before anyone sees it.
        byName.putIfAbsent(defaultAgent, AgentConfig.Echo.DEFAULTS);
        return new AgentsConfig(maxConcurrent, defaultAgent, byName);
    }

    private static String defaultAgent(Section defaults, List<String> names) {
        String named = ConfigBinder.nonBlank(defaults, "agent", null);
        String listed = " (agents.list has: " + String.join(", ", names) + ")";
        if (named != null) {
            if (!names.isEmpty() && !names.contains(named)) {
                String hint = Suggestions.closest(named, names).map(n -> ", did you mean \"" + n + "\"?").orElse("");
                defaults.problem("agent", "no agent named " + YamlNode.quote(named) + " in agents.list" + hint + listed);
            }
            return named;
        }
        if (names.isEmpty() || names.contains(AgentsConfig.DEFAULT_AGENT)) {
            return AgentsConfig.DEFAULT_AGENT;
        }
        if (names.size() == 1) {
            return names.getFirst();
        }
        defaults.problem("agent", "required when agents.list has several agents and none is named \"assistant\"" + listed);
        return AgentsConfig.DEFAULT_AGENT;
    }

    private static Optional<AgentConfig> agent(Section list, String name) {
        Section raw = list.openSection(name);
        if (list.problems().reportedAt(raw.path())) {
            return Optional.empty();
        }
        if (!raw.has("provider")) {
            raw.problemAtKey("provider", "required (one of " + PROVIDERS + ")");
            return Optional.empty();
        }
        String provider = raw.choice("provider", null, AgentsBinder::provider, PROVIDERS);
        if (provider == null) {
            return Optional.empty();
        }
        Section agent = list.section(name, KEYS.get(provider).toArray(String[]::new));
        return Optional.of(switch (provider) {
            case "echo" -> new AgentConfig.Echo(agent.duration("delayMs", Duration.ZERO));
            case "openai" -> openAi(agent);
            case "command" -> command(agent);
            default -> throw new IllegalStateException("provider " + provider);
        });
    }

    private static Optional<String> provider(String raw) {
        String id = raw.trim().toLowerCase(Locale.ROOT);
        return AgentConfig.PROVIDERS.contains(id) ? Optional.of(id) : Optional.empty();
    }

    private static AgentConfig.OpenAi openAi(Section agent) {
        String model = ConfigBinder.nonBlank(agent, "model", null);
        if (model == null && !agent.problems().reportedAt(agent.pathOf("model"))) {
            agent.problem("model", "required for provider openai (e.g. model: gpt-4o-mini)");
        }
        return new AgentConfig.OpenAi(
                Urls.url(agent, "baseUrl", AgentConfig.OpenAi.DEFAULT_BASE_URL, Urls.HTTP),
                new Secret(agent.string("apiKey", "")),
                model == null ? "" : model,
                agent.string("systemPrompt", ""),
                agent.bool("stream", true),
                agent.duration("timeoutMs", Duration.ofMillis(120_000)),
                agent.integer("maxHistoryMessages", 40, 0, MAX),
                agent.optionalNumber("temperature", 0, 2),
                agent.optionalInteger("maxTokens", 1, MAX),
                agent.integer("maxRetries", 2, 0, MAX),
                tools(agent));
    }

    /** {@code tools:} known tool names, each problem at its own item. */
    private static List<String> tools(Section agent) {
        if (!(agent.value("tools") instanceof ListNode list)) {
            return agent.stringList("tools"); // absent, null, or reported as not a list
        }
        Set<String> tools = new LinkedHashSet<>();
        for (int i = 0; i < list.items().size(); i++) {
            String itemPath = agent.pathOf("tools") + "[" + i + "]";
            YamlNode item = list.items().get(i);
            if (item instanceof ScalarNode s && s.reported()) {
                continue;
            }
            if (!(item instanceof ScalarNode s) || s.kind() != Kind.STRING) {
                agent.problems().add(itemPath, item.pos(), "must be a tool name, got " + YamlNode.describe(item));
            } else if (!AgentConfig.KNOWN_TOOLS.contains(s.text())) {
                String hint = Suggestions.closest(s.text(), AgentConfig.KNOWN_TOOLS)
                        .map(t -> ", did you mean \"" + t + "\"?").orElse("");
                agent.problems().add(itemPath, s.pos(), "unknown tool " + YamlNode.quote(s.text()) + hint
                        + " (known tools: " + String.join(", ", AgentConfig.KNOWN_TOOLS) + ")");
            } else {
                tools.add(s.text());
            }
        }
        return List.copyOf(tools);
    }

    private static AgentConfig.Command command(Section agent) {
        List<String> command = agent.stringList("command");
        if (command.isEmpty() && !agent.problems().reportedAt(agent.pathOf("command"))) {
            agent.problem("command", agent.has("command")
                    ? "must not be empty (e.g. command: [my-agent, --json])"
                    : "required for provider command (e.g. command: [my-agent, --json])");
        }
        return new AgentConfig.Command(command, agent.duration("timeoutMs", Duration.ofMillis(60_000)));
    }
}
