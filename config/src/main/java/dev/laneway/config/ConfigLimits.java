package dev.laneway.config;

import dev.laneway.config.YamlNode.Pos;

/**
 * How much config text is read at all, checked before the YAML parser sees it: the parser's time
 * grows with the square of the longest unbroken run of characters (a 10 MB single-line value took
 * half a minute to reject), and every real config is a few kilobytes.
 */
final class ConfigLimits {

    /** The largest config file: 1 MiB. */
    static final int MAX_BYTES = 1024 * 1024;
    /** The longest line, in characters: 64 Ki, room for a system prompt written on one line. */
    static final int MAX_LINE_LENGTH = 64 * 1024;
    /** The deepest nesting of mappings and lists; no setting is nested more than five deep. */
    static final int MAX_DEPTH = 64;

    private ConfigLimits() {
    }

    /** The problem of a file of {@code size} bytes (negative when unknown) that is over {@link #MAX_BYTES}. */
    static String tooLarge(long size) {
        String shown = size < 0 ? "more than " + MAX_BYTES : Long.toString(size);
        return "config file is too large: " + shown + " bytes, the limit is " + MAX_BYTES + " (1 MiB)";
    }

    /** Reports text over the size limit, or each line over the length limit; true when there is none. */
    static boolean check(String text, Problems problems) {
        if (text.length() > MAX_BYTES) {
            problems.add("", Pos.NONE, "config is too large: " + text.length() + " characters, the limit is "
                    + MAX_BYTES + " (1 MiB)");
            return false;
        }
        boolean ok = true;
        int line = 1;
        int start = 0;
        for (int i = 0; i <= text.length(); i++) {
            char c = i == text.length() ? '\n' : text.charAt(i);
            if (c != '\n' && c != '\r') {
                continue;
            }
            if (i - start > MAX_LINE_LENGTH) {
                problems.add("", new Pos(line, 1), "line is " + (i - start) + " characters long, the limit is "
                        + MAX_LINE_LENGTH + " (write a long value over several lines, e.g. as a block scalar: \"key: |\")");
                ok = false;
            }
            if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
                i++;
            }
            line++;
            start = i + 1;
        }
        return ok;
    }

    /** The problem of YAML nested deeper than {@link #MAX_DEPTH}. */
    static String tooDeep() {
        return "the YAML is nested deeper than " + MAX_DEPTH + " levels (no setting is nested more than five deep)";
    }
}
