package dev.laneway.config;

import java.util.List;
import java.util.Map;

/**
 * {@code commands:} who may use {@code /queue} in groups.
 *
 * @param allowFrom channel -> sender ids (numbers in the file are kept as written, as strings)
 */
public record CommandsConfig(Map<String, List<String>> allowFrom) {

    public static final CommandsConfig DEFAULTS = new CommandsConfig(Map.of());

    public CommandsConfig {
        Map<String, List<String>> copy = new java.util.LinkedHashMap<>();
        allowFrom.forEach((channel, ids) -> copy.put(channel, List.copyOf(ids)));
        allowFrom = Immutable.orderedMap(copy);
    }
}
