package dev.laneway.config;

import dev.laneway.config.ChannelsConfig.Discord;
import dev.laneway.config.ChannelsConfig.Slack;
import dev.laneway.config.ChannelsConfig.Telegram;
import dev.laneway.core.channel.ReceiptMode;
import dev.laneway.core.channel.Streaming;
import java.util.Optional;
import java.net.URI;
import java.time.Duration;

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
                mentions(s, spec.obj("groups")),
                streaming(s, spec, Telegram.DEFAULT_STREAMING),
                webhook(s, spec.obj("webhook")),
                receipts(s, spec),
                s.onOff(spec.leaf("drafts").name(), true));
    }

    /**
     * {@code mode} and {@code webhook:}: null in polling mode (the default); in webhook mode the
     * public url and the secret token are required (docs/configuration.md).
     */
    private static TelegramWebhook webhook(Section s, KeySpec.Obj spec) {
        String mode = s.string("mode", "polling").strip();
        Section w = s.section(spec);
        URI url = Urls.url(w, "url", null, Urls.HTTP);            // read in either mode: a wrong kind is named
        String listen = w.string("listen", TelegramWebhook.DEFAULT_LISTEN).strip();
        String path = w.string("path", TelegramWebhook.DEFAULT_PATH).strip();
        Secret secret = new Secret(w.string("secretToken", "").strip());
        if (mode.equals("polling")) {
            boolean named = s.problems().reportedAt(s.pathOf("webhook"))
                    || spec.keyNames().stream().anyMatch(key -> w.problems().reportedAt(w.pathOf(key)));
            if (s.has("webhook") && !named) {
                s.problemAtKey("webhook", "is used only with mode: webhook (mode is polling)");
            }
            return null;
        }
        if (!mode.equals("webhook")) {
            s.problem("mode", "must be polling or webhook, got " + mode);
            return null;
        }
        if (url == null && !w.problems().reportedAt(w.pathOf("url"))) {
            s.problemAtKey("mode", "webhook needs " + w.pathOf("url") + ": the public https address Telegram posts to");
        }
        int colon = listen.lastIndexOf(':');
        int port = -1;
        if (colon > 0) {
            try {
                port = Integer.parseInt(listen.substring(colon + 1));
            } catch (NumberFormatException e) {
                port = -1;
            }
        }
        if (port < 0 || port > 65_535) {
            w.problem("listen", "must be host:port (e.g. " + TelegramWebhook.DEFAULT_LISTEN + "), got " + listen);
        }
        if (!path.startsWith("/")) {
            w.problem("path", "must start with /, got " + path);
        }
        String secretProblem = TelegramWebhook.secretTokenProblem(secret);
        if (!secretProblem.isEmpty() && !w.problems().reportedAt(w.pathOf("secretToken"))) {
            if (w.has("secretToken")) {
                w.problem("secretToken", secretProblem);
            } else {
                s.problemAtKey("mode", "webhook needs " + w.pathOf("secretToken") + " (set TELEGRAM_WEBHOOK_SECRET)");
            }
        }
        if (url == null || port < 0 || port > 65_535 || !path.startsWith("/") || !secretProblem.isEmpty()) {
            return null;   // the problems above fail the load
        }
        return new TelegramWebhook(url, listen.substring(0, colon), port, path, secret);
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
                mentions(s, spec.obj("guilds")),
                streaming(s, spec, Discord.DEFAULT_STREAMING),
                receipts(s, spec),
                s.integer(spec.leaf("shards")));
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
                mentions(s, spec.obj("channels")),
                streaming(s, spec, Slack.DEFAULT_STREAMING),
                receipts(s, spec),
                s.onOff(spec.leaf("streamMethods").name(), true));
    }

    /**
     * {@code receipts: reactions | notices | off} (docs/behaviour.md §16.5); YAML's unquoted
     * {@code off} (a boolean) is taken as off.
     */
    private static ReceiptMode receipts(Section s, KeySpec.Obj spec) {
        return s.choice(spec.leaf("receipts"), ChannelsConfig.DEFAULT_RECEIPTS, raw -> {
            String word = raw.strip().toLowerCase(java.util.Locale.ROOT);
            return Optional.ofNullable(word.equals("false") ? ReceiptMode.OFF : ReceiptMode.ofConfigName(word));
        });
    }

    /** {@code groups}, {@code guilds} or {@code channels}: {@code requireMention}. */
    private static boolean mentions(Section s, KeySpec.Obj spec) {
        return s.section(spec).bool(spec.leaf("requireMention"));
    }
    /**
     * {@code streaming: on | off} and {@code streamingInterval} (the least time between two changes
     * of one live answer, at least 200 ms) of a platform channel (docs/behaviour.md §16).
     */
    private static Streaming streaming(Section s, KeySpec.Obj spec, Streaming defaults) {
        boolean on = s.onOff(spec.leaf("streaming").name(), defaults.on());
        Duration interval = s.duration(spec.leaf("streamingInterval"));
        if (interval.compareTo(MIN_STREAMING_INTERVAL) < 0) {
            s.problems().add(s.pathOf("streamingInterval"), s.keyPos("streamingInterval"),
                    "must be at least 200ms (a platform limits edits per chat), got " + interval.toMillis() + "ms");
            interval = defaults.minEditInterval();
        }
        return new Streaming(on, interval);
    }

    static final Duration MIN_STREAMING_INTERVAL = Duration.ofMillis(200);

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
