package dev.laneway.core.agent.settings;

import dev.laneway.core.UrlRedactor;
import java.util.List;
import java.util.Objects;

/**
 * One agent setting that breaks its rule.
 *
 * @param key     the YAML key under {@code agents.list.<name>}: {@code timeoutMs}, {@code tools[1]} for a
 *                list item, or empty for the entry itself (its name)
 * @param rule    what the value must be, e.g. {@code must be an integer between 0 and 10}
 * @param value   the rejected value
 * @param choices the legal values when there is a closed set (for a "did you mean"), else empty
 */
public record SettingViolation(String key, String rule, Object value, List<String> choices) {

    public SettingViolation {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(rule, "rule");
        choices = List.copyOf(choices);
    }

    /** {@code agents.list.<agent>.<key>: <rule>, got '<value>'}, credentials in a URL value masked. */
    public String message(String agent) {
        return "agents.list." + agent + (key.isEmpty() ? "" : "." + key) + ": " + rule + ", got '"
                + UrlRedactor.redact(String.valueOf(value)) + "'";
    }
}
