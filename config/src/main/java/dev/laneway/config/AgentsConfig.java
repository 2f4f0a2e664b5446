package dev.laneway.config;

import dev.laneway.core.agent.settings.AgentSettings;
import dev.laneway.core.agent.settings.EchoSettings;
import dev.laneway.core.agent.settings.OpenAiSettings;
import java.util.Map;
import java.util.Objects;

/**
 * {@code agents:} the agents and which one answers by default.
 *
 * @param maxConcurrent cap of the global {@code main} lane ({@code agents.defaults.maxConcurrent})
 * @param defaultAgent  the name in {@code list} that answers by default ({@code agents.defaults.agent})
 * @param list          agent name -> its settings (validated by the record, the same one the agent is
 *                      built from), in file order; never empty (an empty {@code agents.list} gets an
 *                      echo agent named {@code defaultAgent})
 */
public record AgentsConfig(int maxConcurrent, String defaultAgent, Map<String, AgentSettings> list) {

    public static final String DEFAULT_AGENT = "assistant";

    public static final AgentsConfig DEFAULTS =
            new AgentsConfig(4, DEFAULT_AGENT, Map.of(DEFAULT_AGENT, EchoSettings.defaults(DEFAULT_AGENT)));

    public AgentsConfig {
        Objects.requireNonNull(defaultAgent, "defaultAgent");
        list = Immutable.orderedMap(list);
        if (!list.containsKey(defaultAgent)) {
            throw new IllegalArgumentException("default agent " + defaultAgent + " is not in " + list.keySet());
        }
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
}
