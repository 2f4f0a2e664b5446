package dev.laneway.config;

import dev.laneway.config.YamlNode.ListNode;
import dev.laneway.config.YamlNode.MapNode;
import dev.laneway.config.YamlNode.ScalarNode;
import dev.laneway.core.agent.AgentBinding;
import dev.laneway.core.agent.settings.AgentSettings;
import dev.laneway.core.engine.AgentRoster;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Binds which agent answers where and what it falls back to (docs/behaviour.md §13,
 * docs/configuration.md §7): {@code agents.bindings}, each agent's {@code fallback} and
 * {@code fallbackNotice}, and {@code agents.defaults.fallbackNotice}. Reports, at their line and
 * column, an agent name that is not in {@code agents.list}, a binding an earlier one shadows (it can
 * never match), and a fallback cycle (naming the agents along it).
 */
final class AgentRoutesBinder {

    /** The keys every {@code agents.list} entry may have besides its provider's. */
    static final List<String> AGENT_KEYS = ConfigKeys.AGENT_ROUTE_KEYS.stream().map(KeySpec::name).toList();
    /** The keys that name the message's space; a binding gives at most one. */
    private static final List<String> SPACE_KEYS = List.of("guild", "workspace", "space");

    private AgentRoutesBinder() {
    }

    /**
     * The {@link AgentsConfig} of {@code agents}, whose {@code defaults} and {@code list} sections the
     * caller has read into {@code maxConcurrent}, {@code defaultAgent} and {@code byName}.
     */
    static AgentsConfig bind(Section agents, Section defaults, Section list, int maxConcurrent, String defaultAgent,
                             Map<String, AgentSettings> byName) {
        Set<String> known = new LinkedHashSet<>(list.keys());
        known.add(defaultAgent);
        boolean defaultNotice = defaults.bool(ConfigKeys.AGENT_DEFAULTS.leaf("fallbackNotice"));
        Map<String, List<String>> fallback = new LinkedHashMap<>();
        Set<String> notice = new LinkedHashSet<>();
        for (String name : list.keys()) {
            if (!(list.value(name) instanceof MapNode)) {
                continue; // reported with the entry
            }
            Section entry = list.openSection(name);
            List<String> next = fallbackList(entry, known);
            boolean on = entry.bool("fallbackNotice", defaultNotice);
            if (!next.isEmpty()) {
                fallback.put(name, next);
                if (on) {
                    notice.add(name);
                }
            }
        }
        reportCycles(list, fallback);
        return new AgentsConfig(maxConcurrent, defaultAgent, byName, bindings(agents, known), fallback, defaultNotice,
                notice);
    }

    /** {@code fallback:} the names as written, each an agent of the list; repeats are dropped. */
    private static List<String> fallbackList(Section entry, Set<String> known) {
        YamlNode node = entry.value("fallback");
        if (node == null || node instanceof ScalarNode s && (s.isNull() || s.reported())) {
            return List.of();
        }
        String path = entry.pathOf("fallback");
        if (!(node instanceof ListNode items)) {
            entry.problems().add(path, node.pos(), "must be a list of agent names (like [local, small]), got "
                    + YamlNode.describe(node));
            return List.of();
        }
        Set<String> names = new LinkedHashSet<>();
        for (int i = 0; i < items.items().size(); i++) {
            YamlNode item = items.items().get(i);
            if (!(item instanceof ScalarNode s) || s.isNull()) {
                entry.problems().add(path + "[" + i + "]", item.pos(), "must be an agent name, got " + YamlNode.describe(item));
            } else if (!known.contains(s.text())) {
                entry.problems().add(path + "[" + i + "]", item.pos(), noAgent(s.text(), known));
            } else {
                names.add(s.text());
            }
        }
        return List.copyOf(names);
    }

    /** Every fallback cycle, once each, at the {@code fallback} key of the first agent on it. */
    private static void reportCycles(Section list, Map<String, List<String>> fallback) {
        Map<String, List<String>> left = new LinkedHashMap<>();
        fallback.forEach((name, next) -> left.put(name, new ArrayList<>(next)));
        for (int found = 0; found <= fallback.size(); found++) {
            List<String> cycle = AgentRoster.findCycle(left).orElse(null);
            if (cycle == null) {
                return;
            }
            String first = cycle.get(0);
            Section entry = list.openSection(first);
            entry.problemAtKey("fallback", "fallback cycle: " + AgentRoster.describeCycle(cycle)
                    + " (a run tries each agent once; remove one of these fallbacks)");
            left.get(cycle.get(cycle.size() - 2)).remove(cycle.get(cycle.size() - 1)); // the edge that closes it
        }
    }

    /** {@code agents.bindings:} a list of rules, each with conditions and an agent, checked for shadowing. */
    private static List<AgentBinding> bindings(Section agents, Set<String> known) {
        YamlNode node = agents.value("bindings");
        if (node == null || node instanceof ScalarNode s && (s.isNull() || s.reported())) {
            return List.of();
        }
        String path = agents.pathOf("bindings");
        if (!(node instanceof ListNode list)) {
            agents.problems().add(path, node.pos(), "must be a list of bindings (- { channel: discord, agent: main }), got "
                    + YamlNode.describe(node));
            return List.of();
        }
        List<AgentBinding> bindings = new ArrayList<>();
        List<Integer> index = new ArrayList<>(); // the YAML index of each binding in bindings
        for (int i = 0; i < list.items().size(); i++) {
            YamlNode item = list.items().get(i);
            String itemPath = path + "[" + i + "]";
            Section rule = Section.of(item, itemPath, agents.problems(), ConfigKeys.BINDING);
            if (agents.problems().reportedAt(itemPath)) {
                continue; // not a mapping
            }
            AgentBinding binding = binding(rule, known);
            if (binding == null) {
                continue;
            }
            for (int j = 0; j < bindings.size(); j++) {
                if (bindings.get(j).shadows(binding)) {
                    int earlier = index.get(j);
                    agents.problems().add(itemPath, item.pos(), "can never match: " + path + "[" + earlier + "] (line "
                            + list.items().get(earlier).pos().line() + ") comes first and matches every message this"
                            + " one would (its conditions are a subset of these); move this binding above it or remove it");
                    break;
                }
            }
            bindings.add(binding);
            index.add(i);
        }
        return bindings;
    }

    /** One binding, or null when it has a problem (reported). */
    private static AgentBinding binding(Section rule, Set<String> known) {
        int problemsBefore = problemCount(rule);
        String channel = ConfigBinder.nonBlank(rule, "channel", null);
        if (channel != null && !ChannelsConfig.NAMES.contains(channel)) {
            rule.problem("channel", "unknown channel " + YamlNode.quote(channel) + ", expected one of "
                    + String.join(", ", ChannelsConfig.NAMES));
        }
        String space = null;
        String spaceKey = null;
        for (String key : SPACE_KEYS) {
            if (rule.has(key)) {
                if (spaceKey != null) {
                    rule.problemAtKey(key, "give only one of guild, workspace and space (each is the message's space),"
                            + " found " + spaceKey + " and " + key);
                } else {
                    spaceKey = key;
                    space = ConfigBinder.nonBlank(rule, key, null);
                }
            }
        }
        String account = ConfigBinder.nonBlank(rule, "account", null);
        String chat = ConfigBinder.nonBlank(rule, "chat", null);
        String thread = ConfigBinder.nonBlank(rule, "thread", null);
        Boolean direct = rule.has("dm") ? rule.bool("dm", false) : null;
        String agent = null;
        if (!rule.has("agent")) {
            rule.problems().add(rule.path(), rule.pos(), "needs an agent (one of " + String.join(", ", known) + ")");
        } else {
            agent = ConfigBinder.nonBlank(rule, "agent", null);
            if (agent != null && !known.contains(agent)) {
                rule.problem("agent", noAgent(agent, known));
            }
        }
        if (agent == null || problemCount(rule) != problemsBefore) {
            return null;
        }
        return new AgentBinding(channel, account, space, chat, thread, direct, agent);
    }

    private static int problemCount(Section section) {
        return section.problems().count();
    }

    private static String noAgent(String name, Set<String> known) {
        String hint = Suggestions.closest(name, List.copyOf(known)).map(n -> ", did you mean \"" + n + "\"?").orElse("");
        return "no agent named " + YamlNode.quote(name) + " in agents.list" + hint + " (agents.list has: "
                + String.join(", ", known) + ")";
    }
}
