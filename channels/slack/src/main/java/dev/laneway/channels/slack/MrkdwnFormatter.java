package dev.laneway.channels.slack;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Converts the Markdown agents write into Slack mrkdwn where the two differ: {@code **bold**} and
 * {@code __bold__} become {@code *bold*}, {@code *italic*} becomes {@code _italic_},
 * {@code ~~strike~~} becomes {@code ~strike~}, {@code [text](url)} becomes {@code <url|text>},
 * headings become bold lines and {@code * item} bullets become {@code • item}. Fenced code blocks
 * and inline code keep their text, but not its markup meaning; a fence's language tag
 * ({@code ```python}) is dropped, since Slack would show it as the block's first line.
 *
 * <p>The characters {@code &}, {@code <} and {@code >} are escaped everywhere, code included, as
 * Slack requires (only a {@code >} that starts a quote is kept): Slack reads {@code <...>} as
 * control syntax even inside code, so unescaped model output could ping people
 * ({@code <!channel>}, {@code <!here>}, {@code <@U123>}) or hide a link. The only {@code <...>}
 * this formatter writes are links whose target is an {@code http(s)} or {@code mailto} URL, so
 * nothing the model writes can become a mention.
 */
final class MrkdwnFormatter {

    private static final String FENCE = "```";
    private static final char BOLD = '\u0001';
    private static final Pattern HEADING = Pattern.compile("^ {0,3}#{1,6}\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern BULLET = Pattern.compile("^(\\s*)[*+-]\\s+");
    private static final Pattern QUOTE = Pattern.compile("^(\\s*)((?:>\\s?)+)");
    private static final Pattern IMAGE_OR_LINK = Pattern.compile("!?\\[([^\\]\\n]*)]\\(([^)\\s]+)\\)");
    private static final Pattern AUTOLINK = Pattern.compile("&lt;((?:https?|mailto):[^\\s&]+)&gt;");
    private static final Pattern STRONG = Pattern.compile("\\*\\*(?=\\S)(.+?)(?<=\\S)\\*\\*|__(?=\\S)(.+?)(?<=\\S)__");
    private static final Pattern EMPHASIS = Pattern.compile("(?<![\\w*])\\*(?=[^\\s*])(.+?)(?<=[^\\s*])\\*(?![\\w*])");
    private static final Pattern BARE_URL = Pattern.compile("(?:https?|mailto):[^\\s<>\u0002]+");
    private static final String PARK = "\u0002";
    private static final Pattern PARKED = Pattern.compile("\u0002(\\d+)\u0002");
    private static final Pattern STRIKE = Pattern.compile("~~(?=\\S)(.+?)(?<=\\S)~~");
    private static final Pattern LINK_TARGET = Pattern.compile("(?:https?://|mailto:)[^|<>\\s]+");
    private static final Pattern PLACEHOLDERS = Pattern.compile("[\u0001\u0002]");

    private MrkdwnFormatter() {
    }

    static String format(String markdown) {
        // the formatter's own placeholders must not come from the input
        String text = PLACEHOLDERS.matcher(markdown).replaceAll("");
        StringBuilder out = new StringBuilder(text.length() + 16);
        boolean inFence = false;
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.stripLeading().startsWith(FENCE)) {
                out.append(escape(inFence ? line : withoutLanguageTag(line)));
                inFence = !inFence;
            } else {
                out.append(inFence ? escape(line) : formatLine(line));
            }
            if (i < lines.length - 1) {
                out.append('\n');
            }
        }
        return out.toString();
    }

    /**
     * An opening fence line without what follows the fence (the language tag, or any info string),
     * unless that holds another backtick: {@code ```code```} on one line stays as it is.
     */
    private static String withoutLanguageTag(String line) {
        int fence = line.indexOf(FENCE);
        int end = fence + FENCE.length();
        while (end < line.length() && line.charAt(end) == '`') {
            end++;
        }
        return line.indexOf('`', end) >= 0 ? line : line.substring(0, end);
    }

    private static String formatLine(String line) {
        Matcher heading = HEADING.matcher(line);
        if (heading.matches() && !heading.group(1).isEmpty()) {
            String title = heading.group(1).replace("**", "").replace("__", "");
            return "*" + formatInline(title) + "*";
        }
        String prefix = "";
        String rest = line;
        Matcher quote = QUOTE.matcher(rest);
        if (quote.find()) {
            prefix = quote.group();
            rest = rest.substring(quote.end());
        }
        Matcher bullet = BULLET.matcher(rest);
        if (bullet.find() && !rest.startsWith("**")) {
            prefix = prefix + bullet.group(1) + "• ";
            rest = rest.substring(bullet.end());
        }
        return prefix + formatInline(rest);
    }

    /** Converts text outside inline code spans; code spans keep their text, escaped. */
    private static String formatInline(String text) {
        StringBuilder out = new StringBuilder(text.length() + 8);
        int from = 0;
        while (from < text.length()) {
            int open = text.indexOf('`', from);
            if (open < 0) {
                break;
            }
            int ticks = run(text, open);
            String marker = "`".repeat(ticks);
            int close = text.indexOf(marker, open + ticks);
            if (close < 0) {
                break;
            }
            out.append(convert(text.substring(from, open)));
            out.append(escape(text.substring(open, close + ticks)));
            from = close + ticks;
        }
        out.append(convert(text.substring(from)));
        return out.toString();
    }

    private static int run(String text, int at) {
        int end = at;
        while (end < text.length() && text.charAt(end) == '`') {
            end++;
        }
        return end - at;
    }

    private static String convert(String text) {
        if (text.isEmpty()) {
            return text;
        }
        String s = escape(text);
        // links are finished Slack syntax: park them so emphasis rules never touch a URL
        List<String> parked = new ArrayList<>();
        s = AUTOLINK.matcher(s).replaceAll(m -> park(parked, "<" + m.group(1) + ">"));
        s = IMAGE_OR_LINK.matcher(s).replaceAll(m -> LINK_TARGET.matcher(m.group(2)).matches()
                ? park(parked, "<" + m.group(2) + "|" + label(m.group(1), parked) + ">")
                : Matcher.quoteReplacement(m.group()));
        s = BARE_URL.matcher(s).replaceAll(m -> park(parked, m.group()));
        s = STRONG.matcher(s).replaceAll(m ->
                Matcher.quoteReplacement(BOLD + (m.group(1) != null ? m.group(1) : m.group(2)) + BOLD));
        s = EMPHASIS.matcher(s).replaceAll(m -> Matcher.quoteReplacement("_" + m.group(1) + "_"));
        s = STRIKE.matcher(s).replaceAll(m -> Matcher.quoteReplacement("~" + m.group(1) + "~"));
        s = s.replace(BOLD, '*');
        return PARKED.matcher(s).replaceAll(m -> Matcher.quoteReplacement(parked.get(Integer.parseInt(m.group(1)))));
    }

    /** Slack's three control characters as entities: text can then never open {@code <...>}. */
    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    /**
     * A link's label as plain text. A link parked inside it ({@code [<http://a>](http://b)}) shows
     * as its bare URL: Slack links do not nest, and the label is parked whole with the outer link, so
     * a placeholder left in it would never be restored.
     */
    private static String label(String text, List<String> parked) {
        String plain = PARKED.matcher(text).replaceAll(m ->
                Matcher.quoteReplacement(bare(parked.get(Integer.parseInt(m.group(1))))));
        return plain.replace("|", "¦");
    }

    /** {@code <url>} or {@code <url|label>} as the text a reader sees: the label, else the URL. */
    private static String bare(String link) {
        String inner = link.substring(1, link.length() - 1);
        int bar = inner.indexOf('|');
        return bar < 0 ? inner : inner.substring(bar + 1);
    }

    private static String park(List<String> parked, String link) {
        parked.add(link);
        return Matcher.quoteReplacement(PARK + (parked.size() - 1) + PARK);
    }
}
