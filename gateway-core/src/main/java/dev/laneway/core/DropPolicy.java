package dev.laneway.core;

import java.util.Locale;
import java.util.Optional;

/** What happens when a message arrives at a session queue that already holds {@code cap} items. */
public enum DropPolicy {
    /** The oldest queued item is dropped. */
    OLD("old"),
    /** The newcomer is rejected. */
    NEW("new"),
    /** As {@link #OLD}, keeping a one-line summary of the dropped item for the next turn. */
    SUMMARIZE("summarize");

    private final String id;

    DropPolicy(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    /** Parses a policy or an alias ({@code oldest}, {@code newest}, {@code summary}). */
    public static Optional<DropPolicy> parse(String raw) {
        if (raw == null) {
            return Optional.empty();
        }
        return Optional.ofNullable(switch (raw.trim().toLowerCase(Locale.ROOT)) {
            case "old", "oldest" -> OLD;
            case "new", "newest" -> NEW;
            case "summarize", "summary" -> SUMMARIZE;
            default -> null;
        });
    }

    @Override
    public String toString() {
        return id;
    }
}
