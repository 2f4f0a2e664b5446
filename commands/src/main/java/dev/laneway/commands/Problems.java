package dev.laneway.commands;

/** The texts (docs/behaviour.md §6.3) for {@code /queue} arguments that were not understood, byte-for-byte. */
final class Problems {

    private Problems() {
    }

    static String mode(String raw) {
        return "Unrecognized queue mode \"" + raw + "\".";
    }

    static String debounce(String raw) {
        return "Invalid debounce \"" + raw + "\". Use ms/s/m (e.g. debounce:1500ms, debounce:2s).";
    }

    static String cap(String raw) {
        return "Invalid cap \"" + raw + "\". Use a positive integer (e.g. cap:10).";
    }

    static String drop(String raw) {
        return "Invalid drop policy \"" + raw + "\". Use drop:old, drop:new, or drop:summarize.";
    }
}
