package dev.laneway.config;

import dev.laneway.config.YamlNode.ListNode;
import dev.laneway.config.YamlNode.Pos;
import dev.laneway.config.YamlNode.ScalarNode;
import dev.laneway.config.YamlNode.ScalarNode.Kind;
import dev.laneway.core.agent.settings.AgentSettings;
import dev.laneway.core.agent.settings.CommandSettings;
import dev.laneway.core.agent.settings.EchoSettings;
import dev.laneway.core.agent.settings.InvalidAgentSettingsException;
import dev.laneway.core.agent.settings.OpenAiSettings;
import dev.laneway.core.agent.settings.ProviderSettings;
import dev.laneway.core.agent.settings.SettingViolation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Binds {@code agents:}: the defaults, and each {@code agents.list} entry by its provider (bindings
 * and fallbacks: {@link AgentRoutesBinder}). This
 * binder only reads keys and types; what values are legal is decided by the settings records of
 * {@code dev.laneway.core.agent.settings}, whose violations are reported here at their key's line
 * and column. The agents are built from those same records, so {@code validate} and {@code run}
 * agree by construction.
 */
final class AgentsBinder {

    private static final String PROVIDERS = String.join(", ", AgentSettings.PROVIDERS);
    private static final Pattern LIST_ITEM = Pattern.compile("(\\w+)\\[(\\d+)]");

    private AgentsBinder() {
    }

    /** {@code agents:}; an {@code openai} agent's {@code endpoint} must name one of {@code providers}. */
    static AgentsConfig bind(Section agents, ProvidersBinder.Providers providers) {
        Section defaults = agents.section(ConfigKeys.AGENT_DEFAULTS);
        int maxConcurrent = defaults.integer(ConfigKeys.AGENT_DEFAULTS.leaf("maxConcurrent"));
        Section list = agents.openSection("list");
        Map<String, AgentSettings> byName = new LinkedHashMap<>();
        for (String name : list.keys()) {
            agent(list, name, providers).ifPresent(agent -> byName.put(name, agent));
        }
        String defaultAgent = defaultAgent(defaults, list.keys());
        // An empty list runs the echo agent. In a list with problems this only keeps the record
        // valid; the loader throws before anyone sees it.
        if (defaultAgent.isBlank()) {
            defaultAgent = AgentsConfig.DEFAULT_AGENT; // that entry's blank name was reported
        }
        byName.putIfAbsent(defaultAgent, EchoSettings.defaults(defaultAgent));
        return AgentRoutesBinder.bind(agents, defaults, list, maxConcurrent, defaultAgent, byName);
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

    private static Optional<AgentSettings> agent(Section list, String name, ProvidersBinder.Providers providers) {
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
        // fallback and fallbackNotice are read by AgentRoutesBinder
        Section agent = list.section(ConfigKeys.AGENT_LIST.byWord().get(provider).named(name));
        Tools tools = provider.equals("openai") ? tools(agent) : Tools.NONE;
        try {
            return Optional.of(switch (provider) {
                case "echo" -> new EchoSettings(name, agent.duration(ConfigKeys.ECHO.leaf("delayMs")), runTimeout(agent));
                case "openai" -> openAi(name, agent, tools, providers);
                case "command" -> command(name, agent);
                default -> throw new IllegalStateException("provider " + provider);
            });
        } catch (InvalidAgentSettingsException e) {
            e.violations().forEach(violation -> report(list, name, agent, tools, violation));
            return Optional.empty();
        }
    }

    private static Optional<String> provider(String raw) {
        String id = raw.trim().toLowerCase(Locale.ROOT);
        return AgentSettings.PROVIDERS.contains(id) ? Optional.of(id) : Optional.empty();
    }

    private static OpenAiSettings openAi(String name, Section agent, Tools tools, ProvidersBinder.Providers providers) {
        KeySpec.Obj spec = ConfigKeys.OPENAI;
        ProviderSettings endpoint = endpoint(agent, providers);
        if (endpoint == null && !agent.has("endpoint") && !agent.has("model")
                && !agent.problems().reportedAt(agent.pathOf("model"))) {
            agent.problem("model", "required for provider openai (e.g. model: gpt-4o-mini), or name an endpoint"
                    + " of providers (endpoint: <name>)");
        }
        return new OpenAiSettings(name,
                endpoint != null ? endpoint.baseUrl() : agent.string(spec.leaf("baseUrl")),
                endpoint != null ? endpoint.apiKey() : agent.string("apiKey", ""),
                endpoint != null ? endpoint.model() : agent.string("model", agent.has("endpoint") ? "unset" : ""),
                agent.string(spec.leaf("systemPrompt")),
                agent.bool(spec.leaf("stream")),
                agent.duration(spec.leaf("timeoutMs")),
                // the settings record checks the ranges (and says so at the key): any integer here
                agent.anyInteger("maxHistoryMessages", (Integer) spec.leaf("maxHistoryMessages").defaultValue()),
                agent.optionalNumber("temperature"),
                agent.optionalAnyInteger("maxTokens"),
                agent.anyInteger("maxRetries", (Integer) spec.leaf("maxRetries").defaultValue()),
                tools.names(),
                runTimeout(agent));
    }

    /**
     * {@code endpoint: <name>}: the {@code providers} entry whose base URL, key and model the agent calls
     * (docs/decisions.md D60). Null when absent or not a valid entry (reported; an entry that had
     * problems of its own is not reported twice). The agent may not set those three itself.
     */
    private static ProviderSettings endpoint(Section agent, ProvidersBinder.Providers providers) {
        String named = agent.string("endpoint", null);
        if (named == null) {
            return null;
        }
        ProviderSettings found = providers.valid().get(named);
        if (found == null && !providers.declared().contains(named)) {
            String hint = Suggestions.closest(named, providers.declared()).map(n -> ", did you mean \"" + n + "\"?")
                    .orElse("");
            agent.problem("endpoint", "no endpoint named " + YamlNode.quote(named) + " in providers" + hint
                    + (providers.declared().isEmpty() ? " (there is no providers: section)"
                    : " (providers has: " + String.join(", ", providers.declared()) + ")"));
        }
        for (String key : List.of("baseUrl", "apiKey", "model")) {
            if (agent.has(key)) {
                agent.problemAtKey(key, "comes from providers." + named + " (this agent's endpoint); remove it here");
            }
        }
        return found;
    }

    /** {@code runTimeoutMs}, any provider: what the settings records validate. */
    private static Duration runTimeout(Section agent) {
        return agent.duration(ConfigKeys.ECHO.leaf("runTimeoutMs")); // the same key in every provider
    }

    /** {@code tools:} the names as written, and where each came from in the YAML list. */
    private record Tools(List<String> names, List<Integer> yamlIndex, ListNode node) {
        static final Tools NONE = new Tools(List.of(), List.of(), null);
    }

    private static Tools tools(Section agent) {
        if (!(agent.value("tools") instanceof ListNode list)) {
            return new Tools(agent.stringList("tools"), List.of(), null); // absent, null, or reported as not a list
        }
        List<String> names = new ArrayList<>();
        List<Integer> yamlIndex = new ArrayList<>();
        for (int i = 0; i < list.items().size(); i++) {
            YamlNode item = list.items().get(i);
            if (item instanceof ScalarNode s && s.reported()) {
                continue;
            }
            if (!(item instanceof ScalarNode s) || s.kind() != Kind.STRING) {
                agent.problems().add(agent.pathOf("tools") + "[" + i + "]", item.pos(),
                        "must be a tool name, got " + YamlNode.describe(item));
            } else {
                names.add(s.text());
                yamlIndex.add(i);
            }
        }
        return new Tools(names, yamlIndex, list);
    }

    private static CommandSettings command(String name, Section agent) {
        List<String> command = agent.stringList("command");
        if (!agent.has("command") && !agent.problems().reportedAt(agent.pathOf("command"))) {
            agent.problem("command", "required for provider command (e.g. command: [my-agent, --json])");
        }
        return new CommandSettings(name, command, agent.duration(ConfigKeys.COMMAND.leaf("timeoutMs")),
                runTimeout(agent));
    }

    /**
     * Reports one broken rule at the key (or list item) that holds the value, quoting the value as
     * written; skipped when that key already has a problem (a wrong type, a missing key).
     */
    private static void report(Section list, String name, Section agent, Tools tools, SettingViolation violation) {
        if (violation.key().isEmpty()) {
            list.problemAtKey(name, violation.rule());
            return;
        }
        String key = violation.key();
        YamlNode node = agent.value(key);
        Pos pos = agent.valuePos(key);
        Matcher item = LIST_ITEM.matcher(key);
        if (item.matches() && item.group(1).equals("tools") && tools.node() != null) {
            int index = tools.yamlIndex().get(Integer.parseInt(item.group(2)));
            key = "tools[" + index + "]";
            node = tools.node().items().get(index);
            pos = node.pos();
        }
        String path = agent.pathOf(key);
        if (agent.problems().reportedAt(path)) {
            return;
        }
        String got = node instanceof ScalarNode ? YamlNode.describe(node)
                : node == null ? YamlNode.quote(String.valueOf(violation.value())) : String.valueOf(violation.value());
        String hint = violation.value() instanceof String text && !violation.choices().isEmpty()
                ? Suggestions.closest(text, violation.choices()).map(c -> ", did you mean \"" + c + "\"?").orElse("")
                : "";
        agent.problems().add(path, pos, violation.rule() + ", got " + got + hint);
    }
}
