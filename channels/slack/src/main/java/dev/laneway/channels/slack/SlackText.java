package dev.laneway.channels.slack;

import java.util.regex.Pattern;

/**
 * Inbound text clean-up: Slack escapes {@code &}, {@code <} and {@code >} as HTML entities and
 * writes the bot's mention as {@code <@U123>}. The bot's own mention is removed, so
 * {@code @bot /queue collect} reaches the command layer as {@code /queue collect}; other mentions,
 * channel references and links keep Slack's {@code <...>} syntax.
 */
final class SlackText {

    private SlackText() {
    }

    static String inbound(String raw, String botUserId) {
        if (raw == null) {
            return "";
        }
        String text = raw.replaceAll("<@" + Pattern.quote(botUserId) + "(?:\\|[^>]*)?> ?", "");
        return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&").strip();
    }
}
