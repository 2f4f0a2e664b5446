package dev.laneway.config;

import static dev.laneway.config.ConfigPrinter.map;
import static dev.laneway.config.ConfigPrinter.url;

import java.util.Map;

/**
 * The {@code channels:} part of {@link ConfigPrinter}'s output; tokens are masked by {@link Secret},
 * credentials in URLs by {@link ConfigPrinter#url}.
 */
final class ChannelPrinter {

    private ChannelPrinter() {
    }

    /** {@code channels.telegram}, with {@code webhook:} only in webhook mode (it is refused otherwise). */
    private static Map<String, Object> telegram(ChannelsConfig.Telegram telegram) {
        Map<String, Object> shown = map("enabled", telegram.enabled(),
                "token", telegram.token(),
                "apiUrl", url(telegram.apiUrl()),
                "allowFrom", telegram.allowFrom(),
                "groups", map("requireMention", telegram.groupsRequireMention()),
                "streaming", onOff(telegram.streaming()),
                "streamingInterval", ConfigPrinter.millis(telegram.streaming().minEditInterval()),
                "receipts", telegram.receipts().configName(),
                "drafts", telegram.drafts() ? "on" : "off",
                "mode", telegram.webhook() == null ? "polling" : "webhook");
        TelegramWebhook webhook = telegram.webhook();
        if (webhook != null) {
            shown.put("webhook", map("url", url(webhook.url()),
                    "listen", webhook.listenHost() + ":" + webhook.listenPort(),
                    "path", webhook.path(),
                    "secretToken", webhook.secretToken()));
        }
        return shown;
    }

    static Map<String, Object> channels(ChannelsConfig channels) {
        ChannelsConfig.Telegram telegram = channels.telegram();
        ChannelsConfig.Discord discord = channels.discord();
        ChannelsConfig.Slack slack = channels.slack();
        return map(
                "console", map("enabled", channels.console().enabled()),
                "telegram", telegram(telegram),
                "discord", map("enabled", discord.enabled(),
                        "token", discord.token(),
                        "allowFrom", discord.allowFrom(),
                        "guilds", map("requireMention", discord.guildsRequireMention()),
                        "apiUrl", url(discord.apiUrl()),
                        "gatewayUrl", url(discord.gatewayUrl()),
                        "streaming", onOff(discord.streaming()),
                        "streamingInterval", ConfigPrinter.millis(discord.streaming().minEditInterval()),
                        "receipts", discord.receipts().configName(),
                        "shards", discord.shards()),
                "slack", map("enabled", slack.enabled(),
                        "botToken", slack.botToken(),
                        "appToken", slack.appToken(),
                        "apiUrl", url(slack.apiUrl()),
                        "allowFrom", slack.allowFrom(),
                        "channels", map("requireMention", slack.channelsRequireMention()),
                        "streaming", onOff(slack.streaming()),
                        "streamingInterval", ConfigPrinter.millis(slack.streaming().minEditInterval()),
                        "receipts", slack.receipts().configName(),
                        "streamMethods", slack.streamMethods() ? "on" : "off"));
    }

    private static String onOff(dev.laneway.core.channel.Streaming streaming) {
        return streaming.on() ? "on" : "off";
    }
}
