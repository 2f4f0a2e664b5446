package dev.laneway.config;

import dev.laneway.config.ChannelsConfig.Discord;
import dev.laneway.config.ChannelsConfig.Slack;
import dev.laneway.config.ChannelsConfig.Telegram;

/**
 * Binds {@code channels:}. An enabled channel needs its token; the console is on by default
 * only when no other channel is enabled.
 */
final class ChannelsBinder {

    private ChannelsBinder() {
    }

    static ChannelsConfig bind(Section channels) {
        Telegram telegram = telegram(channels.section(ConfigKeys.TELEGRAM));
        Discord discord = discord(channels.section(ConfigKeys.DISCORD));
        Slack slack = slack(channels.section(ConfigKeys.SLACK));
        boolean anyOther = telegram.enabled() || discord.enabled() || slack.enabled();
        Section console = channels.section(ConfigKeys.CHANNELS.obj("console"));
        return new ChannelsConfig(new ChannelsConfig.Console(console.bool("enabled", !anyOther)), telegram, discord, slack);
    }

    private static Telegram telegram(Section s) {
        KeySpec.Obj spec = ConfigKeys.TELEGRAM;
        boolean enabled = s.bool(spec.leaf("enabled"));
        return new Telegram(
                enabled,
                token(s, "token", enabled, "TELEGRAM_BOT_TOKEN"),
                Urls.serverRoot(s, "apiUrl", Telegram.DEFAULT_API_URL, Urls.HTTP, Telegram.API_URL_ROOT_ONLY),
                s.stringList(spec.leaf("allowFrom")),
                mentions(s, spec.obj("groups")));
    }

    private static Discord discord(Section s) {
        KeySpec.Obj spec = ConfigKeys.DISCORD;
        boolean enabled = s.bool(spec.leaf("enabled"));
        return new Discord(
                enabled,
                token(s, "token", enabled, "DISCORD_BOT_TOKEN"),
                Urls.url(s, "apiUrl", Discord.DEFAULT_API_URL, spec.leaf("apiUrl").words()),
                Urls.url(s, "gatewayUrl", Discord.DEFAULT_GATEWAY_URL, spec.leaf("gatewayUrl").words()),
                s.stringList(spec.leaf("allowFrom")),
                mentions(s, spec.obj("guilds")));
    }

    private static Slack slack(Section s) {
        KeySpec.Obj spec = ConfigKeys.SLACK;
        boolean enabled = s.bool(spec.leaf("enabled"));
        return new Slack(
                enabled,
                token(s, "botToken", enabled, "SLACK_BOT_TOKEN"),
                token(s, "appToken", enabled, "SLACK_APP_TOKEN"),
                Urls.url(s, "apiUrl", Slack.DEFAULT_API_URL, spec.leaf("apiUrl").words()),
                s.stringList(spec.leaf("allowFrom")),
                mentions(s, spec.obj("channels")));
    }

    /** {@code groups}, {@code guilds} or {@code channels}: {@code requireMention}. */
    private static boolean mentions(Section s, KeySpec.Obj spec) {
        return s.section(spec).bool(spec.leaf("requireMention"));
    }
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
