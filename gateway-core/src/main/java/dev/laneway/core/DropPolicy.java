package dev.laneway.core;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** What happens when a message arrives at a session queue that already holds {@code cap} items. */
public enum DropPolicy {
    /** The oldest queued item is dropped. */
    OLD("old", "oldest"),
    /** The newcomer is rejected. */
    NEW("new", "newest"),
    /** As {@link #OLD}, keeping a one-line summary of the dropped item for the next turn. */
    SUMMARIZE("summarize", "summary");

    private final String id;
    private final List<String> aliases;

    DropPolicy(String id, String... aliases) {
        this.id = id;
        this.aliases = List.of(aliases);
    }

    /** The other words that mean this policy. */
    public List<String> aliases() {
        return aliases;
    }

    public String id() {
        return id;
    }

    /** Parses a policy or an alias ({@code oldest}, {@code newest}, {@code summary}). */
    public static Optional<DropPolicy> parse(String raw) {
        if (raw == null) {
            return Optional.empty();
        }
        String word = raw.trim().toLowerCase(Locale.ROOT);
        for (DropPolicy policy : values()) {
            if (policy.id.equals(word) || policy.aliases.contains(word)) {
                return Optional.of(policy);
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return id;
    }
}
