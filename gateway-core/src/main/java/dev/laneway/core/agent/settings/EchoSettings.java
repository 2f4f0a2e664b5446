package dev.laneway.core.agent.settings;

import java.time.Duration;

/**
 * {@code provider: echo}: the built-in demo agent, replying with what it received.
 *
 * @param name       the agent's name in {@code agents.list}
 * @param delay      how long it waits before answering ({@code delayMs}, >= 0)
 * @param runTimeout see {@link AgentSettings#runTimeout()}
 */
public record EchoSettings(String name, Duration delay, Duration runTimeout) implements AgentSettings {

    public EchoSettings {
        new Violations().name(name)
                .check(delay != null && !delay.isNegative(), "delayMs", "must be a duration >= 0", millis(delay))
                .runTimeout(runTimeout)
                .throwIfAny(name);
    }

    /** With the default {@code runTimeoutMs}. */
    public EchoSettings(String name, Duration delay) {
        this(name, delay, DEFAULT_RUN_TIMEOUT);
    }

    /** An echo agent that answers at once. */
    public static EchoSettings defaults(String name) {
        return new EchoSettings(name, Duration.ZERO);
    }

    @Override
    public String provider() {
        return "echo";
    }

    static Object millis(Duration duration) {
        return duration == null ? null : duration.toMillis();
    }
}
