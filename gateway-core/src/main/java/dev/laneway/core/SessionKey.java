package dev.laneway.core;

import java.util.Objects;

/**
 * The unit of serialization: one active run per session key. Plain strings so that a shared
 * store can key by them (see docs/architecture.md §11).
 */
public record SessionKey(String value) implements Comparable<SessionKey> {

    public SessionKey {
        Objects.requireNonNull(value, "value");
        if (value.isBlank()) {
            throw new IllegalArgumentException("session key must not be blank");
        }
    }

    public static SessionKey of(String value) {
        return new SessionKey(value);
    }

    /** The lane name of this session: {@code session:<key>}. */
    public String laneName() {
        return "session:" + value;
    }

    @Override
    public int compareTo(SessionKey other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
