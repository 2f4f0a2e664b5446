package dev.laneway.config;

/**
 * A token or API key. {@link #toString()} never shows it, so a record holding one can be
 * logged safely; call {@link #value()} only where the secret is sent to its service.
 */
public record Secret(String value) {

    public static final Secret NONE = new Secret("");

    public Secret {
        value = value == null ? "" : value;
    }

    public boolean isEmpty() {
        return value.isEmpty();
    }

    /** {@code ***} for a set secret, empty for an unset one. */
    public String masked() {
        return value.isEmpty() ? "" : "***";
    }

    @Override
    public String toString() {
        return masked();
    }
}
