package dev.laneway.core.agent.settings;

import java.util.ArrayList;
import java.util.List;

/** Collects the broken rules of one settings record while it is constructed. Not thread-safe. */
final class Violations {

    private final List<SettingViolation> found = new ArrayList<>();

    /** Records a violation of {@code rule} unless {@code ok}. */
    Violations check(boolean ok, String key, String rule, Object value) {
        return check(ok, key, rule, value, List.of());
    }

    Violations check(boolean ok, String key, String rule, Object value, List<String> choices) {
        if (!ok) {
            found.add(new SettingViolation(key, rule, value, choices));
        }
        return this;
    }

    /** {@code runTimeoutMs}: a duration > 0, at most {@link AgentSettings#MAX_RUN_TIMEOUT}. */
    Violations runTimeout(java.time.Duration runTimeout) {
        return check(runTimeout != null && runTimeout.isPositive()
                        && runTimeout.compareTo(AgentSettings.MAX_RUN_TIMEOUT) <= 0, "runTimeoutMs",
                "must be a duration > 0 and at most " + AgentSettings.MAX_RUN_TIMEOUT.toHours() + "h",
                EchoSettings.millis(runTimeout));
    }

    /** A blank name breaks the rule of the entry itself. */
    Violations name(String name) {
        return check(name != null && !name.isBlank(), "", "agent name must not be blank", name);
    }

    /** Throws when any rule was broken. */
    void throwIfAny(String agent) {
        if (!found.isEmpty()) {
            throw new InvalidAgentSettingsException(agent, found);
        }
    }
}
