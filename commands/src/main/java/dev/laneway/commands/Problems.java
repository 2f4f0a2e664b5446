package dev.laneway.commands;

/**
 * The texts of docs/behaviour.md §6.3 for {@code /queue} arguments that were not understood, byte-for-byte,
 * except that a value longer than {@link #MAX_QUOTED} characters is quoted by its first ones and
 * {@code …}: the reply never echoes a long input back.
 */
final class Problems {

    /** The most characters of a bad value that a problem quotes. */
    static final int MAX_QUOTED = 40;

    private Problems() {
    }

    static String mode(String raw) {
        return "Unrecognized queue mode \"" + quote(raw) + "\".";
    }

    static String debounce(String raw) {
        return "Invalid debounce \"" + quote(raw) + "\". Use ms/s/m (e.g. debounce:1500ms, debounce:2s).";
    }

    static String cap(String raw) {
        return "Invalid cap \"" + quote(raw) + "\". Use a positive integer (e.g. cap:10).";
    }

    static String drop(String raw) {
        return "Invalid drop policy \"" + quote(raw) + "\". Use drop:old, drop:new, or drop:summarize.";
    }

    /** {@code raw}, or its first {@link #MAX_QUOTED} characters and {@code …} (never half an emoji). */
    static String quote(String raw) {
        if (raw.length() <= MAX_QUOTED) {
            return raw;
        }
        int end = Character.isHighSurrogate(raw.charAt(MAX_QUOTED - 1)) ? MAX_QUOTED - 1 : MAX_QUOTED;
        return raw.substring(0, end) + "…";
    }
}
