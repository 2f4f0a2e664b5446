package dev.laneway.core.agent.settings;

import java.time.Duration;
import java.util.List;

/**
 * {@code provider: command}: runs a local program per turn.
 *
 * @param name    the agent's name in {@code agents.list}
 * @param command the program and its arguments; the program must be named
 * @param timeout bound on one turn ({@code timeoutMs}, > 0)
 * @param runTimeout see {@link AgentSettings#runTimeout()}
 */
public record CommandSettings(String name, List<String> command, Duration timeout, Duration runTimeout)
        implements AgentSettings {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    public CommandSettings {
        command = command == null ? List.of() : command.stream().map(part -> part == null ? "" : part).toList();
        new Violations().name(name)
                .check(!command.isEmpty(), "command", "must not be empty (e.g. command: [my-agent, --json])", command)
                .check(command.isEmpty() || !command.getFirst().isBlank(), "command",
                        "must start with the program to run (e.g. command: [my-agent, --json])", command)
                .check(timeout != null && timeout.isPositive(), "timeoutMs", "must be a duration > 0",
                        EchoSettings.millis(timeout))
                .runTimeout(runTimeout)
                .throwIfAny(name);
    }

    /** With the default {@code runTimeoutMs}. */
    public CommandSettings(String name, List<String> command, Duration timeout) {
        this(name, command, timeout, DEFAULT_RUN_TIMEOUT);
    }

    @Override
    public String provider() {
        return "command";
    }
}
