package dev.laneway.core.agent.settings;

import java.util.List;

/**
 * The validated settings of one {@code agents.list} entry: the one place that decides what is legal
 * for an agent, like {@link dev.laneway.core.QueueSettings} for the queue. The config loader builds
 * these records (reporting each {@link SettingViolation} at its line and column) and the agents are
 * constructed from the very same records, so {@code laneway validate} and {@code laneway run} can
 * never disagree about an agent. They live in core because config and agents may only import core.
 */
public sealed interface AgentSettings permits EchoSettings, OpenAiSettings, CommandSettings {

    /** The {@code provider:} values, in the order error messages list them. */
    List<String> PROVIDERS = List.of("echo", "openai", "command");

    /** The entry's name in {@code agents.list}. */
    String name();

    /** The {@code provider:} value of this entry. */
    String provider();
}
