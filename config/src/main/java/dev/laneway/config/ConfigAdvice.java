package dev.laneway.config;

import java.util.ArrayList;
import java.util.List;

/**
 * Warnings about a valid configuration that probably does not do what its author meant, e.g. a
 * channel with a token that stays off because {@code enabled} is missing. {@code run} and
 * {@code validate} print them; they never stop the gateway.
 */
public final class ConfigAdvice {

    private ConfigAdvice() {
    }

    public static List<String> warnings(LanewayConfig config) {
        List<String> warnings = new ArrayList<>();
        ChannelsConfig channels = config.channels();
        offWithToken(warnings, "telegram", "Telegram", channels.telegram().enabled(), !channels.telegram().token().isEmpty());
        offWithToken(warnings, "discord", "Discord", channels.discord().enabled(), !channels.discord().token().isEmpty());
        offWithToken(warnings, "slack", "Slack", channels.slack().enabled(),
                !channels.slack().botToken().isEmpty() || !channels.slack().appToken().isEmpty());
        return List.copyOf(warnings);
    }

    private static void offWithToken(List<String> warnings, String key, String name, boolean enabled, boolean hasToken) {
        if (!enabled && hasToken) {
            warnings.add("channels." + key + " has a token but is not enabled, so " + name
                    + " stays off (add \"enabled: true\" under channels." + key + ")");
        }
    }
}
