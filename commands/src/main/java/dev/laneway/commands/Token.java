package dev.laneway.commands;

import java.util.ArrayList;
import java.util.List;

/**
 * One whitespace-separated word of a message and where it starts, so that the text after a
 * command or directive can be handed on verbatim.
 *
 * @param raw   the word as typed
 * @param start its index in the text it was split from
 */
record Token(String raw, int start) {

    /** The index just past this token. */
    int end() {
        return start + raw.length();
    }

    /** A word starting with {@code @} is a mention ({@code @MyBot}), never a setting. */
    boolean isMention() {
        return raw.startsWith("@");
    }

    /**
     * Splits {@code text} at whitespace: Java whitespace plus Unicode space separators (a
     * no-break space typed by a phone keyboard separates words too).
     */
    static List<Token> split(String text) {
        List<Token> tokens = new ArrayList<>();
        int start = -1;
        for (int i = 0; i <= text.length(); i++) {
            boolean space = i == text.length() || isSpace(text.charAt(i));
            if (space && start >= 0) {
                tokens.add(new Token(text.substring(start, i), start));
                start = -1;
            } else if (!space && start < 0) {
                start = i;
            }
        }
        return tokens;
    }

    static boolean isSpace(char c) {
        return Character.isWhitespace(c) || Character.isSpaceChar(c);
    }
}
