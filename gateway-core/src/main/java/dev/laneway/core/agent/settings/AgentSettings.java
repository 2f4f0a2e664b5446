package dev.laneway.core.agent.settings;

import java.time.Duration;
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

    /** {@code runTimeoutMs} when an entry does not set it. */
    Duration DEFAULT_RUN_TIMEOUT = Duration.ofMinutes(5);

    /** The largest {@code runTimeoutMs} allowed. */
    Duration MAX_RUN_TIMEOUT = Duration.ofHours(24);

    /**
     * {@code runTimeoutMs}: how long one run of this agent may take, from the moment it starts, before
     * the gateway aborts it, frees its lanes and tells the user it failed; whatever the agent does
     * meanwhile (a stream of keep-alives, text that never ends, an agent that ignores abort).
     */
    Duration runTimeout();
}
