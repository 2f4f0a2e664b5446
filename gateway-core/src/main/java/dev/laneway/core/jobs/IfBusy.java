package dev.laneway.core.jobs;

import java.util.Locale;
import java.util.Optional;

/** What a fire does when its target session is busy (docs/behaviour.md §12). */
public enum IfBusy {
    /** Submit anyway: the session lane runs it after the conversation's current work. */
    WAIT,
    /** Skip this fire (one INFO line, counted); the next fire is scheduled as usual. */
    SKIP;

    /** The word as written in the config file. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** {@code wait} or {@code skip}, any case. */
    public static Optional<IfBusy> parse(String raw) {
        return switch (raw.trim().toLowerCase(Locale.ROOT)) {
            case "wait" -> Optional.of(WAIT);
            case "skip" -> Optional.of(SKIP);
            default -> Optional.empty();
        };
    }
}
