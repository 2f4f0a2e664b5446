package dev.laneway.core;

import java.util.Locale;
import java.util.Optional;

/** What a message does when its session is active (docs/behaviour.md §3). */
public enum QueueMode {
    STEER("steer"),
    FOLLOWUP("followup"),
    COLLECT("collect"),
    STEER_BACKLOG("steer-backlog"),
    INTERRUPT("interrupt");

    private final String id;

    QueueMode(String id) {
        this.id = id;
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
        return Optional.ofNullable(switch (raw.trim().toLowerCase(Locale.ROOT)) {
            case "steer", "steering", "queue", "queued" -> STEER;
            case "followup", "follow-up", "followups" -> FOLLOWUP;
            case "collect", "coalesce" -> COLLECT;
            case "steer-backlog", "steer+backlog", "steer_backlog" -> STEER_BACKLOG;
            case "interrupt", "abort" -> INTERRUPT;
            default -> null;
        });
    }

    @Override
    public String toString() {
        return id;
    }
}
