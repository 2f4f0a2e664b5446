package dev.laneway.core.channel;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a reply into chunks of at most {@code limit} characters, preferring paragraph, then line,
 * then sentence, then word boundaries. A chunk never ends inside a Markdown code fence: the cut
 * moves before the fence, and a fence longer than the limit is closed at the end of the chunk and
 * reopened (with its language tag) at the start of the next one.
 */
public final class TextChunker {

    private static final String FENCE = "```";

    private TextChunker() {
    }

    public static List<String> split(String text, int limit) {
        if (limit < 16) {
            throw new IllegalArgumentException("limit must be >= 16, got " + limit);
        }
        List<String> chunks = new ArrayList<>();
        String rest = text;
        String reopen = "";
        while (!rest.isEmpty()) {
            rest = reopen + rest;
            reopen = "";
            if (rest.length() <= limit) {
                chunks.add(rest);
                break;
            }
            int cut = chooseCut(rest, limit);
            String fenceOpener = openFenceAt(rest, cut);
            if (fenceOpener != null) {
                int fenceStart = rest.lastIndexOf(FENCE, cut);
                int before = fenceStart > 0 ? boundaryCut(rest, fenceStart) : 0;
                if (before > 0) {
                    cut = before;
                } else {
                    // the fence starts the chunk and is longer than the limit: close and reopen it
                    String closing = "\n" + FENCE;
                    cut = chooseCut(rest, limit - closing.length());
                    if (openFenceAt(rest, cut) != null) {
                        chunks.add(stripTrailingNewline(rest.substring(0, cut)) + closing);
                        reopen = openFenceAt(rest, cut) + "\n";
                        rest = stripLeadingNewline(rest.substring(cut));
                        continue;
                    }
                }
            }
            chunks.add(rest.substring(0, cut).stripTrailing());
            rest = rest.substring(cut).stripLeading();
        }
        chunks.removeIf(String::isBlank);
        return chunks;
    }

    /** The best cut at or before {@code limit}: paragraph, line, sentence, word, else hard. */
    private static int chooseCut(String text, int limit) {
        int cut = boundaryCut(text, limit);
        if (cut > 0) {
            return cut;
        }
        // a hard cut never splits a surrogate pair
        return Character.isLowSurrogate(text.charAt(limit)) && Character.isHighSurrogate(text.charAt(limit - 1))
                ? limit - 1 : limit;
    }

    private static int boundaryCut(String text, int limit) {
        int floor = limit / 4;
        String window = text.substring(0, Math.min(limit, text.length()));
        int at = window.lastIndexOf("\n\n");
        if (at > floor) {
            return at + 1;
        }
        at = window.lastIndexOf('\n');
        if (at > floor) {
            return at + 1;
        }
        at = lastSentenceEnd(window);
        if (at > floor) {
            return at;
        }
        at = window.lastIndexOf(' ');
        return at > floor ? at + 1 : -1;
    }

    private static int lastSentenceEnd(String window) {
        for (int i = window.length() - 2; i > 0; i--) {
            char c = window.charAt(i);
            if ((c == '.' || c == '!' || c == '?') && window.charAt(i + 1) == ' ') {
                return i + 2;
            }
        }
        return -1;
    }

    /** If position {@code cut} lies inside a fenced block, that block's opening line, else null. */
    private static String openFenceAt(String text, int cut) {
        String opener = null;
        int from = 0;
        while (true) {
            int at = text.indexOf(FENCE, from);
            if (at < 0 || at >= cut) {
                return opener;
            }
            if (opener == null) {
                int lineEnd = text.indexOf('\n', at);
                opener = lineEnd < 0 ? text.substring(at) : text.substring(at, lineEnd);
            } else {
                opener = null;
            }
            from = at + FENCE.length();
        }
    }

    private static String stripTrailingNewline(String s) {
        return s.endsWith("\n") ? s.substring(0, s.length() - 1) : s;
    }

    private static String stripLeadingNewline(String s) {
        return s.startsWith("\n") ? s.substring(1) : s;
    }
}
