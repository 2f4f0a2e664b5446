package dev.laneway.config;

import dev.laneway.core.channel.ReceiptMode;
import dev.laneway.core.channel.Streaming;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * {@code channels:} the chat platforms Laneway listens on. Console's {@code enabled} is resolved
 * at load time: when the file does not set it, the console is on exactly when no other channel is.
 */
public record ChannelsConfig(Console console, Telegram telegram, Discord discord, Slack slack) {

    /** The channel names: the keys of {@code channels:}, and of every per-channel map ({@code byChannel}, {@code allowFrom}). */
    public static final List<String> NAMES = List.of("console", "telegram", "discord", "slack");

    /**
     * Receipts as reactions on every platform (docs/behaviour.md §16.5): a message that runs at once
     * shows none where the platform has a typing indicator (Telegram, Discord), so only a message
     * that waits gets one; on Slack every message shows 👀 until its answer, as before receipts.
     */
    public static final ReceiptMode DEFAULT_RECEIPTS = ReceiptMode.REACTIONS;

    public static final ChannelsConfig DEFAULTS =
            new ChannelsConfig(new Console(true), Telegram.DEFAULTS, Discord.DEFAULTS, Slack.DEFAULTS);

    public ChannelsConfig {
        Objects.requireNonNull(console, "console");
        Objects.requireNonNull(telegram, "telegram");
        Objects.requireNonNull(discord, "discord");
        Objects.requireNonNull(slack, "slack");
    }

    /** Whether any channel other than the console is enabled. */
    public boolean anyPlatformEnabled() {
        return telegram.enabled() || discord.enabled() || slack.enabled();
    }

    /** {@code channels.console:} stdin/stdout chat. */
    public record Console(boolean enabled) {
    }

    /**
     * {@code channels.telegram:}.
     *
     * @param apiUrl               the Bot API server, {@code scheme://host[:port]} and nothing more
     * @param allowFrom            sender ids; empty = everyone
     * @param groupsRequireMention {@code groups.requireMention}
     * @param streaming            {@code streaming} and {@code streamingInterval} (docs/behaviour.md §16)
     * @param webhook              {@code mode: webhook} and its {@code webhook:} settings; null in the
     *                             default {@code mode: polling} (docs/configuration.md)
     * @param receipts             {@code receipts} (docs/behaviour.md §16.5)
     * @param drafts               {@code drafts}: a private chat's answer streams as a draft
     *                             ({@code sendMessageDraft}) rather than by send, then edit (docs/behaviour.md §16.1)
     */
    public record Telegram(boolean enabled, Secret token, URI apiUrl, List<String> allowFrom,
                           boolean groupsRequireMention, Streaming streaming, TelegramWebhook webhook,
                           ReceiptMode receipts, boolean drafts) {

        /** With drafts in private chats (the default). */
        public Telegram(boolean enabled, Secret token, URI apiUrl, List<String> allowFrom,
                        boolean groupsRequireMention, Streaming streaming, TelegramWebhook webhook,
                        ReceiptMode receipts) {
            this(enabled, token, apiUrl, allowFrom, groupsRequireMention, streaming, webhook, receipts, true);
        }

        /** With the default receipts. */
        public Telegram(boolean enabled, Secret token, URI apiUrl, List<String> allowFrom,
                        boolean groupsRequireMention, Streaming streaming, TelegramWebhook webhook, boolean drafts) {
            // = DEFAULT_RECEIPTS, not read here: a class init cycle (ChannelsConfig.DEFAULTS builds this)
            this(enabled, token, apiUrl, allowFrom, groupsRequireMention, streaming, webhook, ReceiptMode.REACTIONS,
                    drafts);
        }

        /** With the default receipts and drafts in private chats. */
        public Telegram(boolean enabled, Secret token, URI apiUrl, List<String> allowFrom,
                        boolean groupsRequireMention, Streaming streaming, TelegramWebhook webhook) {
            this(enabled, token, apiUrl, allowFrom, groupsRequireMention, streaming, webhook, ReceiptMode.REACTIONS,
                    true);
        }

        /** Streaming on, one change a second (Telegram's one message a second per chat). */
        public static final Streaming DEFAULT_STREAMING = Streaming.every(Duration.ofSeconds(1));

        /** With the default streaming, in polling mode. */
        public Telegram(boolean enabled, Secret token, URI apiUrl, List<String> allowFrom,
                        boolean groupsRequireMention) {
            this(enabled, token, apiUrl, allowFrom, groupsRequireMention, DEFAULT_STREAMING, null);
        }

        public static final URI DEFAULT_API_URL = URI.create("https://api.telegram.org");
        public static final Telegram DEFAULTS = new Telegram(false, Secret.NONE, DEFAULT_API_URL, List.of(), true);
        /** Why {@code apiUrl} is a bare server root. */
        static final String API_URL_ROOT_ONLY = "the SDK builds /bot<token>/<method> from the root";

        public Telegram {
            Objects.requireNonNull(token, "token");
            Objects.requireNonNull(apiUrl, "apiUrl");
            Urls.rootProblem(apiUrl, API_URL_ROOT_ONLY).ifPresent(problem -> {
                throw new IllegalArgumentException("channels.telegram.apiUrl: " + problem);
            });
            allowFrom = List.copyOf(allowFrom);
            Objects.requireNonNull(streaming, "streaming");
            Objects.requireNonNull(receipts, "receipts");
        }
    }

    /**
     * {@code channels.discord:}.
     *
     * @param apiUrl               the REST base URL
     * @param gatewayUrl           the WebSocket gateway URL (ws/wss)
     * @param allowFrom            sender ids; empty = everyone
     * @param guildsRequireMention {@code guilds.requireMention}
     * @param streaming            {@code streaming} and {@code streamingInterval} (docs/behaviour.md §16)
     * @param receipts             {@code receipts} (docs/behaviour.md §16.5)
     * @param shards               {@code shards}: the bot's total shard count, at least 1 (docs/behaviour.md §17, "Ingress")
     */
    public record Discord(boolean enabled, Secret token, URI apiUrl, URI gatewayUrl, List<String> allowFrom,
                          boolean guildsRequireMention, Streaming streaming, ReceiptMode receipts, int shards) {

        /** With one shard. */
        public Discord(boolean enabled, Secret token, URI apiUrl, URI gatewayUrl, List<String> allowFrom,
                       boolean guildsRequireMention, Streaming streaming, ReceiptMode receipts) {
            this(enabled, token, apiUrl, gatewayUrl, allowFrom, guildsRequireMention, streaming, receipts, DEFAULT_SHARDS);
        }

        /** Streaming on, one change a second (Discord allows about five edits per five seconds in a channel). */
        public static final Streaming DEFAULT_STREAMING = Streaming.every(Duration.ofSeconds(1));

        /** One shard: the whole bot on one gateway connection. */
        public static final int DEFAULT_SHARDS = 1;

        /** With the default streaming and one shard. */
        public Discord(boolean enabled, Secret token, URI apiUrl, URI gatewayUrl, List<String> allowFrom,
                       boolean guildsRequireMention) {
            this(enabled, token, apiUrl, gatewayUrl, allowFrom, guildsRequireMention, DEFAULT_STREAMING);
        }

        /** With the default receipts and one shard. */
        public Discord(boolean enabled, Secret token, URI apiUrl, URI gatewayUrl, List<String> allowFrom,
                       boolean guildsRequireMention, Streaming streaming) {
            // = DEFAULT_RECEIPTS, not read here: a class init cycle (ChannelsConfig.DEFAULTS builds this)
            this(enabled, token, apiUrl, gatewayUrl, allowFrom, guildsRequireMention, streaming, ReceiptMode.REACTIONS,
                    DEFAULT_SHARDS);
        }

        /** The same bot with {@code total} shards. */
        public Discord withShards(int total) {
            return new Discord(enabled, token, apiUrl, gatewayUrl, allowFrom, guildsRequireMention, streaming, receipts,
                    total);
        }

        public static final URI DEFAULT_API_URL = URI.create("https://discord.com/api/v10");
        public static final URI DEFAULT_GATEWAY_URL = URI.create("wss://gateway.discord.gg");
        public static final Discord DEFAULTS =
                new Discord(false, Secret.NONE, DEFAULT_API_URL, DEFAULT_GATEWAY_URL, List.of(), true);

        public Discord {
            Objects.requireNonNull(token, "token");
            Objects.requireNonNull(apiUrl, "apiUrl");
            Objects.requireNonNull(gatewayUrl, "gatewayUrl");
            allowFrom = List.copyOf(allowFrom);
            Objects.requireNonNull(streaming, "streaming");
            Objects.requireNonNull(receipts, "receipts");
            if (shards < 1) {
                throw new IllegalArgumentException("channels.discord.shards must be at least 1, got " + shards);
            }
        }
    }

    /**
     * {@code channels.slack:} Socket Mode needs both tokens.
     *
     * @param allowFrom              sender ids; empty = everyone
     * @param channelsRequireMention {@code channels.requireMention}
     * @param streaming              {@code streaming} and {@code streamingInterval} (docs/behaviour.md §16)
     * @param receipts               {@code receipts} (docs/behaviour.md §16.5)
     */
    public record Slack(boolean enabled, Secret botToken, Secret appToken, URI apiUrl, List<String> allowFrom,
                        boolean channelsRequireMention, Streaming streaming, ReceiptMode receipts,
                        boolean streamMethods) {

        /** With Slack's streaming methods where they apply ({@code streamMethods: on}, the default). */
        public Slack(boolean enabled, Secret botToken, Secret appToken, URI apiUrl, List<String> allowFrom,
                     boolean channelsRequireMention, Streaming streaming, ReceiptMode receipts) {
            this(enabled, botToken, appToken, apiUrl, allowFrom, channelsRequireMention, streaming, receipts, true);
        }

        /** With the default receipts. */
        public Slack(boolean enabled, Secret botToken, Secret appToken, URI apiUrl, List<String> allowFrom,
                     boolean channelsRequireMention, Streaming streaming, boolean streamMethods) {
            // = DEFAULT_RECEIPTS, not read here: a class init cycle (ChannelsConfig.DEFAULTS builds this)
            this(enabled, botToken, appToken, apiUrl, allowFrom, channelsRequireMention, streaming, ReceiptMode.REACTIONS,
                    streamMethods);
        }

        /** With the default receipts and streaming methods. */
        public Slack(boolean enabled, Secret botToken, Secret appToken, URI apiUrl, List<String> allowFrom,
                     boolean channelsRequireMention, Streaming streaming) {
            this(enabled, botToken, appToken, apiUrl, allowFrom, channelsRequireMention, streaming, ReceiptMode.REACTIONS,
                    true);
        }

        /** Streaming on, one change every 2 s ({@code chat.update} is Tier 3: about 50 a minute per workspace). */
        public static final Streaming DEFAULT_STREAMING = Streaming.every(Duration.ofSeconds(2));

        /** With the default streaming. */
        public Slack(boolean enabled, Secret botToken, Secret appToken, URI apiUrl, List<String> allowFrom,
                     boolean channelsRequireMention) {
            this(enabled, botToken, appToken, apiUrl, allowFrom, channelsRequireMention, DEFAULT_STREAMING);
        }

        public static final URI DEFAULT_API_URL = URI.create("https://slack.com/api/");
        public static final Slack DEFAULTS = new Slack(false, Secret.NONE, Secret.NONE, DEFAULT_API_URL, List.of(), true);

        public Slack {
            Objects.requireNonNull(botToken, "botToken");
            Objects.requireNonNull(appToken, "appToken");
            Objects.requireNonNull(apiUrl, "apiUrl");
            allowFrom = List.copyOf(allowFrom);
            Objects.requireNonNull(streaming, "streaming");
            Objects.requireNonNull(receipts, "receipts");
        }
    }
}
