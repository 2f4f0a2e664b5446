package dev.laneway.core.channel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Splits a reply into chunks of at most {@code limit} characters, preferring paragraph, then line,
 * then sentence, then word boundaries. A chunk never ends inside a Markdown code fence: the cut
 * moves before the fence, and a fence longer than the limit is closed at the end of the chunk and
 * reopened (with its opening line, language tag included, when that line is short) at the start of
 * the next one.
 *
 * <p>Every round takes at least one character of the text into a chunk, whatever the input (a
 * reopened fence repeats at most a quarter of the limit), so splitting always ends. The work is
 * linear in the text's length by design: the text is never copied per round, the fence markers are
 * found in one pass up front, and each round looks only at its own window of at most {@code limit}
 * characters (fence state at a position is a binary search in the markers).
 */
public final class TextChunker {

    private static final String FENCE = "```";
    private static final String CLOSING = "\n" + FENCE;
    /** A reopened fence repeats an opening line of at most this many characters (and a quarter of the limit). */
    private static final int MAX_REOPEN = 64;

    private TextChunker() {
    }

    public static List<String> split(String text, int limit) {
        if (limit >= 16 && text.length() <= limit) { // one chunk, the text itself: no split to make
            return text.isBlank() ? List.of() : List.of(text);
        }
        List<Piece> pieces = pieces(text, limit);
        List<String> chunks = new ArrayList<>(pieces.size());
        for (Piece piece : pieces) {
            String chunk = piece.render(text);
            if (!chunk.isBlank()) {
                chunks.add(chunk);
            }
        }
        return chunks;
    }

    /**
     * One chunk as {@link #split} renders it, with {@code end}: where in the text its own part ends
     * (the text after it, less leading whitespace, is the next chunk's). For a live answer, which
     * must know how much of its text a message already shows (docs/behaviour.md §16).
     */
    public record Chunk(String text, int end) {
    }

    /** {@link #split}, with each chunk's end in the text; the same chunks, in the same order. */
    public static List<Chunk> chunks(String text, int limit) {
        if (limit >= 16 && text.length() <= limit) {
            return text.isBlank() ? List.of() : List.of(new Chunk(text, text.length()));
        }
        List<Chunk> chunks = new ArrayList<>();
        for (Piece piece : pieces(text, limit)) {
            String chunk = piece.render(text);
            if (!chunk.isBlank()) {
                chunks.add(new Chunk(chunk, piece.end()));
            }
        }
        return chunks;
    }

    /**
     * When {@code position} lies inside a fenced code block of {@code text}, the line that opened
     * it (so a text continued from there can reopen it), else null.
     */
    public static String openFenceAt(String text, int position) {
        int opener = -1;
        for (int i = text.indexOf(FENCE); i >= 0 && i < position; i = text.indexOf(FENCE, i + FENCE.length())) {
            opener = opener < 0 ? i : -1;
        }
        if (opener < 0) {
            return null;
        }
        int lineEnd = text.indexOf('\n', opener);
        return lineEnd < 0 || lineEnd > position ? FENCE : text.substring(opener, lineEnd).stripTrailing();
    }

    /**
     * The start of {@code text} that fits in {@code limit} characters, for a text cut short: cut at
     * the best boundary, like a chunk, but a code fence open at the cut is closed there rather than
     * moved to a next chunk (there is none). Reads at most {@code limit + 1} characters of the text.
     */
    public static String head(String text, int limit) {
        if (limit < 16) {
            throw new IllegalArgumentException("limit must be >= 16, got " + limit);
        }
        if (text.length() <= limit) {
            return text;
        }
        return new Splitter(text.subSequence(0, limit + 1), limit).head();
    }

    /**
     * The chunks as pieces of {@code text}: what {@link #split} renders, before blank chunks are
     * dropped. Package-private so tests can check that the pieces cover the text in order.
     */
    static List<Piece> pieces(CharSequence text, int limit) {
        if (limit < 16) {
            throw new IllegalArgumentException("limit must be >= 16, got " + limit);
        }
        return new Splitter(text, limit).run();
    }

    /**
     * One chunk: {@code prefix} (a reopened fence's opening line and a newline, or empty), then
     * {@code text[start, end)}, then {@code suffix} (a closing fence, or empty).
     */
    record Piece(String prefix, int start, int end, String suffix) {

        String render(CharSequence text) {
            StringBuilder chunk = new StringBuilder(prefix.length() + (end - start) + suffix.length());
            return chunk.append(prefix).append(text, start, end).append(suffix).toString();
        }

        int length() {
            return prefix.length() + (end - start) + suffix.length();
        }
    }

    /** One split: the text, its fence markers and how far the chunks have got. Not thread-safe; used once. */
    private static final class Splitter {

        private final CharSequence text;
        private final int n;
        private final int limit;
        private final int maxReopen;
        private final int[] markers; // start of every fence marker, in order (non-overlapping, as found left to right)
        private final int markerCount;
        private int pos;             // the first character not yet in a chunk

        Splitter(CharSequence text, int limit) {
            this.text = text;
            this.n = text.length();
            this.limit = limit;
            this.maxReopen = Math.min(MAX_REOPEN, limit / 4);
            int[] found = new int[16];
            int count = 0;
            for (int i = 0; i + FENCE.length() <= n; ) {
                if (text.charAt(i) == '`' && text.charAt(i + 1) == '`' && text.charAt(i + 2) == '`') {
                    if (count == found.length) {
                        found = Arrays.copyOf(found, count * 2);
                    }
                    found[count++] = i;
                    i += FENCE.length();
                } else {
                    i++;
                }
            }
            this.markers = found;
            this.markerCount = count;
        }

        List<Piece> run() {
            List<Piece> pieces = new ArrayList<>();
            String reopen = "";
            while (pos < n) {
                int budget = limit - reopen.length();
                if (n - pos <= budget) {
                    pieces.add(new Piece(reopen, pos, n, ""));
                    break;
                }
                int cut = chooseCut(pos, pos + budget);
                int opener = openerAt(cut);
                if (opener > pos) {
                    // the cut lies in a fence that opened in this chunk: cut before the fence if there is a boundary
                    int before = boundaryCut(pos, opener);
                    if (before > pos) {
                        cut = before;
                        opener = openerAt(cut);
                    }
                }
                if (opener >= 0) {
                    // the fence starts the chunk (or goes on from the last one): close it here, reopen it next
                    cut = chooseCut(pos, pos + budget - CLOSING.length());
                    opener = openerAt(cut);
                    if (opener >= 0) {
                        int end = cut > pos && text.charAt(cut - 1) == '\n' ? cut - 1 : cut;
                        pieces.add(new Piece(reopen, pos, end, CLOSING));
                        reopen = reopenLine(opener, cut) + "\n";
                        advance(cut);
                        if (pos < n && text.charAt(pos) == '\n') {
                            pos++;
                        }
                        continue;
                    }
                }
                int end = cut;
                while (end > pos && Character.isWhitespace(text.charAt(end - 1))) {
                    end--;
                }
                pieces.add(new Piece(reopen, pos, end, ""));
                reopen = "";
                advance(cut);
                while (pos < n && Character.isWhitespace(text.charAt(pos))) {
                    pos++;
                }
            }
            return pieces;
        }

        /** The first chunk of a text longer than the limit, an open fence closed at its end. */
        String head() {
            int cut = chooseCut(0, limit);
            if (openerAt(cut) >= 0) {
                cut = chooseCut(0, limit - CLOSING.length());
                if (openerAt(cut) >= 0) {
                    int end = text.charAt(cut - 1) == '\n' ? cut - 1 : cut;
                    return new Piece("", 0, end, CLOSING).render(text);
                }
            }
            int end = cut;
            while (end > 0 && Character.isWhitespace(text.charAt(end - 1))) {
                end--;
            }
            return new Piece("", 0, end, "").render(text);
        }

        /** Moves past {@code cut}, which must lie beyond the current position: every round makes progress. */
        private void advance(int cut) {
            if (cut <= pos) {
                throw new IllegalStateException("TextChunker made no progress at " + pos + " of " + n);
            }
            pos = cut;
        }

        /** The best cut in {@code (from, to]}: paragraph, line, sentence, word, else hard. */
        private int chooseCut(int from, int to) {
            int cut = boundaryCut(from, to);
            if (cut > from) {
                return cut;
            }
            // a hard cut never splits a surrogate pair
            return Character.isLowSurrogate(text.charAt(to)) && Character.isHighSurrogate(text.charAt(to - 1))
                    ? to - 1 : to;
        }

        /**
         * The last boundary in the window {@code [from, to)} past its first quarter, as a cut position
         * (after the boundary), else -1. Scans only that part of the window, once per kind of boundary.
         */
        private int boundaryCut(int from, int to) {
            int floor = from + (to - from) / 4;
            for (int at = to - 2; at > floor; at--) {
                if (text.charAt(at) == '\n' && text.charAt(at + 1) == '\n') {
                    return at + 1;
                }
            }
            for (int at = to - 1; at > floor; at--) {
                if (text.charAt(at) == '\n') {
                    return at + 1;
                }
            }
            for (int at = to - 2; at + 2 > floor && at > from; at--) {
                char c = text.charAt(at);
                if ((c == '.' || c == '!' || c == '?') && text.charAt(at + 1) == ' ') {
                    return at + 2;
                }
            }
            for (int at = to - 1; at > floor; at--) {
                if (text.charAt(at) == ' ') {
                    return at + 1;
                }
            }
            return -1;
        }

        /** If position {@code cut} lies inside a fenced block, where that block's opening marker starts, else -1. */
        private int openerAt(int cut) {
            int before = lowerBound(cut); // markers before the cut
            return (before & 1) == 1 ? markers[before - 1] : -1;
        }

        /** How many markers start before {@code position}. */
        private int lowerBound(int position) {
            int low = 0;
            int high = markerCount;
            while (low < high) {
                int mid = (low + high) >>> 1;
                if (markers[mid] < position) {
                    low = mid + 1;
                } else {
                    high = mid;
                }
            }
            return low;
        }

        /**
         * How the next chunk reopens the fence opened at {@code opener}: its opening line when that
         * line ended before the cut and is short, else a bare fence.
         */
        private String reopenLine(int opener, int cut) {
            int scanEnd = Math.min(cut, opener + maxReopen + 1);
            for (int i = opener + FENCE.length(); i < scanEnd; i++) {
                if (text.charAt(i) == '\n') {
                    return text.subSequence(opener, i).toString().stripTrailing();
                }
            }
            return FENCE;
        }
    }
}
