package dev.laneway.core.agent.settings;

import java.util.List;
import java.util.stream.Collectors;

/**
 * An agent's settings broke one or more rules; carries every violation, so the config loader can
 * report them all, each at its own line. The message names each key and its bad value.
 */
public final class InvalidAgentSettingsException extends IllegalArgumentException {

    private final String agent;
    private final transient List<SettingViolation> violations;

    InvalidAgentSettingsException(String agent, List<SettingViolation> violations) {
        super(violations.stream().map(v -> v.message(agent)).collect(Collectors.joining("; ")));
        this.agent = agent;
        this.violations = List.copyOf(violations);
    }

    /** The agent's name in {@code agents.list}. */
    public String agent() {
        return agent;
    }

    /** Every broken rule, in the order of the record's fields. */
    public List<SettingViolation> violations() {
        return violations;
    }
}
