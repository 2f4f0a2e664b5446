package dev.laneway.channels.slack;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Converts the Markdown agents write into Slack mrkdwn where the two differ: {@code **bold**} and
 * {@code __bold__} become {@code *bold*}, {@code *italic*} becomes {@code _italic_},
 * {@code ~~strike~~} becomes {@code ~strike~}, {@code [text](url)} becomes {@code <url|text>},
 * headings become bold lines and {@code * item} bullets become {@code • item}. The characters
 * {@code &}, {@code <} and {@code >} are escaped as Slack requires (a {@code >} that starts a
 * quote is kept). Fenced code blocks and inline code are left exactly as they are.
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

    private MrkdwnFormatter() {
    }

    static String format(String markdown) {
        StringBuilder out = new StringBuilder(markdown.length() + 16);
        boolean inFence = false;
        String[] lines = markdown.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.stripLeading().startsWith(FENCE)) {
                inFence = !inFence;
                out.append(line);
            } else {
                out.append(inFence ? line : formatLine(line));
            }
            if (i < lines.length - 1) {
                out.append('\n');
            }
        }
        return out.toString();
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

    /** Converts text outside inline code spans; code spans are copied as they are. */
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
            out.append(text, open, close + ticks);
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
        String s = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
        // links are finished Slack syntax: park them so emphasis rules never touch a URL
        List<String> parked = new ArrayList<>();
        s = AUTOLINK.matcher(s).replaceAll(m -> park(parked, "<" + m.group(1) + ">"));
        s = IMAGE_OR_LINK.matcher(s).replaceAll(m ->
                park(parked, "<" + m.group(2) + "|" + m.group(1).replace("|", "¦") + ">"));
        s = BARE_URL.matcher(s).replaceAll(m -> park(parked, m.group()));
        s = STRONG.matcher(s).replaceAll(m ->
                Matcher.quoteReplacement(BOLD + (m.group(1) != null ? m.group(1) : m.group(2)) + BOLD));
        s = EMPHASIS.matcher(s).replaceAll(m -> Matcher.quoteReplacement("_" + m.group(1) + "_"));
        s = STRIKE.matcher(s).replaceAll(m -> Matcher.quoteReplacement("~" + m.group(1) + "~"));
        s = s.replace(BOLD, '*');
        return PARKED.matcher(s).replaceAll(m -> Matcher.quoteReplacement(parked.get(Integer.parseInt(m.group(1)))));
    }

    private static String park(List<String> parked, String link) {
        parked.add(link);
        return Matcher.quoteReplacement(PARK + (parked.size() - 1) + PARK);
    }
}
