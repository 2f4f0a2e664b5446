package dev.laneway.core.store;

import java.util.Objects;

/** One message of a conversation's history: role ({@code user}, {@code assistant}, ...) and content. */
public record HistoryEntry(String role, String content) {

    public HistoryEntry {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(content, "content");
    }
}
