package dev.laneway.channels.telegram;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Renders the Markdown that agents write into Telegram's HTML parse mode, conservatively: fenced
 * code blocks, inline code, {@code **bold**}, {@code [links](https://...)} and {@code #} headings.
 * Everything else is escaped ({@code & < >}), so the result always parses; markers that are not
 * balanced on their line stay as they are. Returns empty when the text has nothing to format: it
 * then goes as plain text, with no parse mode at all.
 */
final class TelegramMarkup {

    private static final Pattern INLINE = Pattern.compile(
            "`([^`\\n]+)`|\\*\\*([^*\\n]+?)\\*\\*|\\[([^\\]\\n]+)\\]\\((https?://[^\\s)]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+?)\\s*#*\\s*$");
    private static final Pattern LANGUAGE = Pattern.compile("[\\w+#.-]{1,32}");
    private static final String FENCE = "```";

    private TelegramMarkup() {
    }

    static Optional<String> toHtml(String text) {
        String[] lines = text.split("\n", -1);
        StringBuilder out = new StringBuilder(text.length() + 32);
        boolean formatted = false;
        int i = 0;
        while (i < lines.length) {
            if (i > 0) {
                out.append('\n');
            }
            String line = lines[i];
            int close = line.strip().startsWith(FENCE) ? closingFence(lines, i + 1) : -1;
            if (close > 0) {
                appendCodeBlock(out, line.strip().substring(FENCE.length()).strip(), lines, i + 1, close);
                formatted = true;
                i = close + 1;
                continue;
            }
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                out.append("<b>");
                inline(out, heading.group(1));
                out.append("</b>");
                formatted = true;
            } else {
                formatted |= inline(out, line);
            }
            i++;
        }
        return formatted ? Optional.of(out.toString()) : Optional.empty();
    }

    private static int closingFence(String[] lines, int from) {
        for (int j = from; j < lines.length; j++) {
            if (lines[j].strip().equals(FENCE)) {
                return j;
            }
        }
        return -1;
    }

    private static void appendCodeBlock(StringBuilder out, String language, String[] lines, int from, int to) {
        out.append("<pre>");
        if (LANGUAGE.matcher(language).matches()) {
            out.append("<code class=\"language-").append(escape(language)).append("\">");
        } else {
            out.append("<code>");
        }
        for (int j = from; j < to; j++) {
            if (j > from) {
                out.append('\n');
            }
            out.append(escape(lines[j]));
        }
        out.append("</code></pre>");
    }

    /** Appends one line with its inline markup rendered; true when anything was rendered. */
    private static boolean inline(StringBuilder out, String line) {
        Matcher m = INLINE.matcher(line);
        int last = 0;
        boolean formatted = false;
        while (m.find()) {
            out.append(escape(line.substring(last, m.start())));
            if (m.group(1) != null) {
                out.append("<code>").append(escape(m.group(1))).append("</code>");
            } else if (m.group(2) != null) {
                out.append("<b>").append(escape(m.group(2))).append("</b>");
            } else {
                out.append("<a href=\"").append(escape(m.group(4)).replace("\"", "&quot;")).append("\">")
                        .append(escape(m.group(3))).append("</a>");
            }
            formatted = true;
            last = m.end();
        }
        out.append(escape(line.substring(last)));
        return formatted;
    }

    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
