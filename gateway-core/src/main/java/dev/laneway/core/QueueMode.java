package dev.laneway.core;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** What a message does when its session is active (docs/behaviour.md §3). */
public enum QueueMode {
    STEER("steer", "steering", "queue", "queued"),
    FOLLOWUP("followup", "follow-up", "followups"),
    COLLECT("collect", "coalesce"),
    STEER_BACKLOG("steer-backlog", "steer+backlog", "steer_backlog"),
    INTERRUPT("interrupt", "abort");

    private final String id;
    private final List<String> aliases;

    QueueMode(String id, String... aliases) {
        this.id = id;
        this.aliases = List.of(aliases);
    }

    /** The other words that mean this mode (in config and {@code /queue}). */
    public List<String> aliases() {
        return aliases;
    }

    /** The canonical spelling used in config, replies and logs. */
    public String id() {
        return id;
    }

    /** Parses a mode or one of its aliases, case-insensitively; empty when not a mode. */
    public static Optional<QueueMode> parse(String raw) {
        if (raw == null) {
            return Optional.empty();
        }
        String word = raw.trim().toLowerCase(Locale.ROOT);
        for (QueueMode mode : values()) {
            if (mode.id.equals(word) || mode.aliases.contains(word)) {
                return Optional.of(mode);
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return id;
    }
}
