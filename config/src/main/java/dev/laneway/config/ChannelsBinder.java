package dev.laneway.config;

import dev.laneway.config.ChannelsConfig.Discord;
import dev.laneway.config.ChannelsConfig.Slack;
import dev.laneway.config.ChannelsConfig.Telegram;
import dev.laneway.core.channel.Streaming;
import java.time.Duration;

/**
 * Binds {@code channels:}. An enabled channel needs its token; the console is on by default
 * only when no other channel is enabled.
 */
final class ChannelsBinder {

    private ChannelsBinder() {
    }

    static ChannelsConfig bind(Section channels) {
        Telegram telegram = telegram(channels.section("telegram", "enabled", "token", "apiUrl", "allowFrom", "groups",
                "streaming", "streamingInterval"));
        Discord discord = discord(channels.section("discord", "enabled", "token", "apiUrl", "gatewayUrl", "allowFrom",
                "guilds", "streaming", "streamingInterval"));
        Slack slack = slack(channels.section("slack", "enabled", "botToken", "appToken", "apiUrl", "allowFrom",
                "channels", "streaming", "streamingInterval"));
        boolean anyOther = telegram.enabled() || discord.enabled() || slack.enabled();
        Section console = channels.section("console", "enabled");
        return new ChannelsConfig(new ChannelsConfig.Console(console.bool("enabled", !anyOther)), telegram, discord, slack);
    }

    private static Telegram telegram(Section s) {
        boolean enabled = s.bool("enabled", false);
        return new Telegram(
                enabled,
                token(s, "token", enabled, "TELEGRAM_BOT_TOKEN"),
                Urls.serverRoot(s, "apiUrl", Telegram.DEFAULT_API_URL, Urls.HTTP, Telegram.API_URL_ROOT_ONLY),
                s.stringList("allowFrom"),
                s.section("groups", "requireMention").bool("requireMention", true),
                streaming(s, Telegram.DEFAULT_STREAMING));
    }

    private static Discord discord(Section s) {
        boolean enabled = s.bool("enabled", false);
        return new Discord(
                enabled,
                token(s, "token", enabled, "DISCORD_BOT_TOKEN"),
                Urls.url(s, "apiUrl", Discord.DEFAULT_API_URL, Urls.HTTP),
                Urls.url(s, "gatewayUrl", Discord.DEFAULT_GATEWAY_URL, Urls.WEBSOCKET),
                s.stringList("allowFrom"),
                s.section("guilds", "requireMention").bool("requireMention", true),
                streaming(s, Discord.DEFAULT_STREAMING));
    }

    private static Slack slack(Section s) {
        boolean enabled = s.bool("enabled", false);
        return new Slack(
                enabled,
                token(s, "botToken", enabled, "SLACK_BOT_TOKEN"),
                token(s, "appToken", enabled, "SLACK_APP_TOKEN"),
                Urls.url(s, "apiUrl", Slack.DEFAULT_API_URL, Urls.HTTP),
                s.stringList("allowFrom"),
                s.section("channels", "requireMention").bool("requireMention", true),
                streaming(s, Slack.DEFAULT_STREAMING));
    }

    /**
     * {@code streaming: on | off} and {@code streamingInterval} (the least time between two changes
     * of one live answer, at least 200 ms) of a platform channel (docs/behaviour.md §16).
     */
    private static Streaming streaming(Section s, Streaming defaults) {
        boolean on = s.onOff("streaming", defaults.on());
        Duration interval = s.duration("streamingInterval", defaults.minEditInterval());
        if (interval.compareTo(MIN_STREAMING_INTERVAL) < 0) {
            s.problems().add(s.pathOf("streamingInterval"), s.keyPos("streamingInterval"),
                    "must be at least 200ms (a platform limits edits per chat), got " + interval.toMillis() + "ms");
            interval = defaults.minEditInterval();
        }
        return new Streaming(on, interval);
    }

    private static final Duration MIN_STREAMING_INTERVAL = Duration.ofMillis(200);

    /**
     * A token, required when the channel is enabled. The problem points at the token's key, or
     * at {@code enabled} when the key is missing; it is not repeated after a missing variable.
     */
    private static Secret token(Section s, String key, boolean enabled, String envVariable) {
        Secret token = new Secret(s.string(key, "").strip());
        String path = s.pathOf(key);
        if (enabled && token.isEmpty() && !s.problems().reportedAt(path)) {
            YamlNode.Pos pos = s.keyPos(s.value(key) != null ? key : "enabled");
            s.problems().add(path, pos, "required when " + s.pathOf("enabled")
                    + " is true (set " + envVariable + ")");
        }
        return token;
    }
}
