package dev.laneway.config;

import dev.laneway.core.agent.AgentBinding;
import dev.laneway.core.agent.settings.AgentSettings;
import dev.laneway.core.agent.settings.EchoSettings;
import dev.laneway.core.agent.settings.OpenAiSettings;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * {@code agents:} the agents, which one answers where, and where each falls back to
 * (docs/behaviour.md §13).
 *
 * @param maxConcurrent  cap of the global {@code main} lane ({@code agents.defaults.maxConcurrent})
 * @param defaultAgent   the name in {@code list} that answers what no binding matches
 *                       ({@code agents.defaults.agent})
 * @param list           agent name -> its settings (validated by the record, the same one the agent
 *                       is built from), in file order; never empty (an empty {@code agents.list} gets
 *                       an echo agent named {@code defaultAgent})
 * @param bindings       {@code agents.bindings}, in file order: the first that matches a message names
 *                       its agent
 * @param fallback       agent name -> the agents its runs continue on when it cannot answer
 *                       ({@code fallback}), in order; only agents with a non-empty list
 * @param fallbackNotice {@code agents.defaults.fallbackNotice}: whether a fallback's answer is followed
 *                       by a short note, for agents that do not say
 * @param noticeAgents   the agents with a fallback whose runs send that note (their own
 *                       {@code fallbackNotice}, else the default)
 */
public record AgentsConfig(int maxConcurrent, String defaultAgent, Map<String, AgentSettings> list,
                           List<AgentBinding> bindings, Map<String, List<String>> fallback, boolean fallbackNotice,
                           Set<String> noticeAgents) {

    public static final String DEFAULT_AGENT = "assistant";

    public static final AgentsConfig DEFAULTS =
            new AgentsConfig(4, DEFAULT_AGENT, Map.of(DEFAULT_AGENT, EchoSettings.defaults(DEFAULT_AGENT)));

    public AgentsConfig {
        Objects.requireNonNull(defaultAgent, "defaultAgent");
        list = Immutable.orderedMap(list);
        bindings = List.copyOf(bindings);
        fallback = Immutable.orderedMap(fallback);
        noticeAgents = Set.copyOf(noticeAgents);
        if (!list.containsKey(defaultAgent)) {
            throw new IllegalArgumentException("default agent " + defaultAgent + " is not in " + list.keySet());
        }
    }

    /** Agents without bindings or fallbacks. */
    public AgentsConfig(int maxConcurrent, String defaultAgent, Map<String, AgentSettings> list) {
        this(maxConcurrent, defaultAgent, list, List.of(), Map.of(), false, Set.of());
    }

    /** The most history messages any configured agent sends with a turn (0 when none keeps history). */
    public int largestHistory() {
        return list.values().stream()
                .mapToInt(agent -> agent instanceof OpenAiSettings openai ? openai.maxHistoryMessages() : 0)
                .max().orElse(0);
    }

    /** The settings of the agent that answers by default. */
    public AgentSettings defaultAgentConfig() {
        return list.get(defaultAgent);
    }

    /** The agents a run of {@code name} continues on, in the order written (empty when none). */
    public List<String> fallbackOf(String name) {
        return fallback.getOrDefault(name, List.of());
    }

    /**
     * The agents that can answer a message, in file order: the default agent, every binding's agent,
     * and every agent they fall back to (directly or through another fallback). Only these are built.
     */
    public List<String> reachable() {
        return reachable(List.of());
    }

    /** {@link #reachable()}, also from the agents {@code named} elsewhere (scheduled jobs' {@code agent:}). */
    public List<String> reachable(Collection<String> named) {
        Set<String> reached = new LinkedHashSet<>();
        List<String> todo = new ArrayList<>();
        todo.add(defaultAgent);
        todo.addAll(named);
        bindings.forEach(binding -> todo.add(binding.agent()));
        while (!todo.isEmpty()) {
            String name = todo.remove(0);
            if (list.containsKey(name) && reached.add(name)) {
                todo.addAll(fallbackOf(name));
            }
        }
        return list.keySet().stream().filter(reached::contains).toList();
    }
}
