package dev.laneway.core.agent.settings;

import java.time.Duration;

/**
 * {@code provider: echo}: the built-in demo agent, replying with what it received.
 *
 * @param name  the agent's name in {@code agents.list}
 * @param delay how long it waits before answering ({@code delayMs}, >= 0)
 */
public record EchoSettings(String name, Duration delay) implements AgentSettings {

    public EchoSettings {
        new Violations().name(name)
                .check(delay != null && !delay.isNegative(), "delayMs", "must be a duration >= 0", millis(delay))
                .throwIfAny(name);
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
