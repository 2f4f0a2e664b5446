package dev.laneway.channels.telegram;

import dev.laneway.config.ChannelsConfig;
import dev.laneway.config.Secret;
import dev.laneway.core.channel.ReceiptMode;
import dev.laneway.core.channel.Streaming;
import java.net.URI;
import java.time.Duration;
import java.util.Collection;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.telegram.telegrambots.meta.TelegramUrl;

/**
 * Everything the Telegram channel needs, validated at construction. {@link #fromConfig} maps
 * {@code channels.telegram} from YAML; the tuning fields have production defaults and exist so that
 * tests (and unusual deployments) can shorten them.
 *
 * @param token                the bot token ({@link Secret}: never printed)
 * @param apiUrl               the Bot API server: {@code https://api.telegram.org}, a self-hosted Local
 *                             Bot API server, or a test server; scheme, host and port only (the SDK
 *                             builds {@code /bot<token>/<method>} at the root)
 * @param groupsRequireMention in groups, take only messages that mention the bot, reply to it, or are
 *                             commands addressed to it
 * @param allowFrom            sender ids allowed to talk to the bot (empty = everyone); the gateway's
 *                             access policy enforces it, the channel only uses it to keep its own
 *                             notices (such as "text only") from strangers
 * @param pollTimeout          how long one {@code getUpdates} is held open by the server
 * @param typingRefresh        how often the gateway re-sends the typing action (it shows for 5 s)
 * @param adminCacheTtl        how long a group's administrator list is trusted
 * @param pollBackoffInitial   first wait after a failed {@code getUpdates}; doubles per failure
 * @param pollBackoffMax       longest wait between {@code getUpdates} attempts
 * @param pacing               outbound rate limits
 * @param streaming            whether answers stream, and how often a live message may change (docs/behaviour.md §16)
 * @param receipts             how messages show their receipts (docs/behaviour.md §16.5)
 * @param drafts               a private chat's answer streams as a draft ({@code sendMessageDraft}), its final
 *                             text sent as a message; off: send, then edit there too (docs/behaviour.md §16.1)
 */
public record TelegramSettings(
        Secret token,
        URI apiUrl,
        boolean groupsRequireMention,
        Set<String> allowFrom,
        Duration pollTimeout,
        Duration typingRefresh,
        Duration adminCacheTtl,
        Duration pollBackoffInitial,
        Duration pollBackoffMax,
        Pacing pacing,
        Streaming streaming,
        ReceiptMode receipts,
        boolean drafts) {

    public static final URI DEFAULT_API_URL = ChannelsConfig.Telegram.DEFAULT_API_URL;

    public TelegramSettings {
        Objects.requireNonNull(token, "token");
        if (token.isEmpty()) {
            throw new IllegalArgumentException(
                    "channels.telegram.token is empty: set TELEGRAM_BOT_TOKEN to the token from @BotFather");
        }
        Objects.requireNonNull(apiUrl, "apiUrl");
        validateApiUrl(apiUrl);
        allowFrom = Set.copyOf(allowFrom);
        requirePositive("pollTimeout", pollTimeout);
        if (pollTimeout.toSeconds() < 1) {
            throw new IllegalArgumentException("pollTimeout must be at least 1s (getUpdates counts whole seconds), got "
                    + pollTimeout.toMillis() + "ms");
        }
        requirePositive("typingRefresh", typingRefresh);
        requirePositive("adminCacheTtl", adminCacheTtl);
        requirePositive("pollBackoffInitial", pollBackoffInitial);
        requirePositive("pollBackoffMax", pollBackoffMax);
        if (pollBackoffMax.compareTo(pollBackoffInitial) < 0) {
            throw new IllegalArgumentException("pollBackoffMax must be >= pollBackoffInitial");
        }
        Objects.requireNonNull(pacing, "pacing");
        Objects.requireNonNull(streaming, "streaming");
        Objects.requireNonNull(receipts, "receipts");
    }

    /** Production defaults for a token and a Bot API server. */
    public static TelegramSettings of(Secret token, URI apiUrl) {
        return new TelegramSettings(token, apiUrl, true, Set.of(), Duration.ofSeconds(50), Duration.ofSeconds(4),
                Duration.ofMinutes(2), Duration.ofSeconds(1), Duration.ofSeconds(30), Pacing.DEFAULTS,
                ChannelsConfig.Telegram.DEFAULT_STREAMING, ChannelsConfig.DEFAULT_RECEIPTS, true);
    }

    /** {@code channels.telegram} from the YAML config. */
    public static TelegramSettings fromConfig(ChannelsConfig.Telegram config) {
        return of(config.token(), config.apiUrl())
                .withGroupsRequireMention(config.groupsRequireMention())
                .withAllowFrom(config.allowFrom())
                .withStreaming(config.streaming())
                .withReceipts(config.receipts())
                .withDrafts(config.drafts());
    }

    public TelegramSettings withGroupsRequireMention(boolean value) {
        return new TelegramSettings(token, apiUrl, value, allowFrom, pollTimeout, typingRefresh, adminCacheTtl,
                pollBackoffInitial, pollBackoffMax, pacing, streaming, receipts, drafts);
    }

    public TelegramSettings withAllowFrom(Collection<String> value) {
        return new TelegramSettings(token, apiUrl, groupsRequireMention, Set.copyOf(value), pollTimeout, typingRefresh,
                adminCacheTtl, pollBackoffInitial, pollBackoffMax, pacing, streaming, receipts, drafts);
    }

    public TelegramSettings withPollTimeout(Duration value) {
        return new TelegramSettings(token, apiUrl, groupsRequireMention, allowFrom, value, typingRefresh, adminCacheTtl,
                pollBackoffInitial, pollBackoffMax, pacing, streaming, receipts, drafts);
    }

    public TelegramSettings withTypingRefresh(Duration value) {
        return new TelegramSettings(token, apiUrl, groupsRequireMention, allowFrom, pollTimeout, value, adminCacheTtl,
                pollBackoffInitial, pollBackoffMax, pacing, streaming, receipts, drafts);
    }

    public TelegramSettings withAdminCacheTtl(Duration value) {
        return new TelegramSettings(token, apiUrl, groupsRequireMention, allowFrom, pollTimeout, typingRefresh, value,
                pollBackoffInitial, pollBackoffMax, pacing, streaming, receipts, drafts);
    }

    public TelegramSettings withPollBackoff(Duration initial, Duration max) {
        return new TelegramSettings(token, apiUrl, groupsRequireMention, allowFrom, pollTimeout, typingRefresh,
                adminCacheTtl, initial, max, pacing, streaming, receipts, drafts);
    }

    public TelegramSettings withPacing(Pacing value) {
        return new TelegramSettings(token, apiUrl, groupsRequireMention, allowFrom, pollTimeout, typingRefresh,
                adminCacheTtl, pollBackoffInitial, pollBackoffMax, value, streaming, receipts, drafts);
    }

    public TelegramSettings withReceipts(ReceiptMode value) {
        return new TelegramSettings(token, apiUrl, groupsRequireMention, allowFrom, pollTimeout, typingRefresh,
                adminCacheTtl, pollBackoffInitial, pollBackoffMax, pacing, streaming, value, drafts);
    }

    public TelegramSettings withStreaming(Streaming value) {
        return new TelegramSettings(token, apiUrl, groupsRequireMention, allowFrom, pollTimeout, typingRefresh,
                adminCacheTtl, pollBackoffInitial, pollBackoffMax, pacing, value, receipts, drafts);
    }

    public TelegramSettings withDrafts(boolean value) {
        return new TelegramSettings(token, apiUrl, groupsRequireMention, allowFrom, pollTimeout, typingRefresh,
                adminCacheTtl, pollBackoffInitial, pollBackoffMax, pacing, streaming, receipts, value);
    }

    /** The SDK's form of {@link #apiUrl}. */
    TelegramUrl telegramUrl() {
        String scheme = apiUrl.getScheme().toLowerCase(Locale.ROOT);
        int port = apiUrl.getPort() != -1 ? apiUrl.getPort() : "https".equals(scheme) ? 443 : 80;
        return new TelegramUrl(scheme, apiUrl.getHost(), port, false);
    }

    private static void validateApiUrl(URI url) {
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("channels.telegram.apiUrl must start with http:// or https://, got " + url);
        }
        if (url.getHost() == null || url.getHost().isBlank()) {
            throw new IllegalArgumentException("channels.telegram.apiUrl has no host: " + url);
        }
        String path = url.getPath() == null ? "" : url.getPath();
        if (!path.isEmpty() && !path.equals("/") || url.getQuery() != null) {
            throw new IllegalArgumentException("channels.telegram.apiUrl must be scheme://host[:port] without a path "
                    + "(the Bot API serves /bot<token>/<method> at the root), got " + url);
        }
    }

    private static void requirePositive(String name, Duration value) {
        Objects.requireNonNull(value, name);
        if (!value.isPositive()) {
            throw new IllegalArgumentException(name + " must be positive, got " + value.toMillis() + "ms");
        }
    }

    /**
     * Outbound pacing, after the Bot FAQ: about one message per second in a chat (a short burst is
     * tolerated) and at most {@code groupMax} messages per {@code groupWindow} in a group.
     */
    public record Pacing(Duration chatInterval, int chatBurst, int groupMax, Duration groupWindow) {

        public static final Pacing DEFAULTS = new Pacing(Duration.ofSeconds(1), 3, 20, Duration.ofMinutes(1));

        public Pacing {
            requirePositive("pacing.chatInterval", chatInterval);
            requirePositive("pacing.groupWindow", groupWindow);
            if (chatBurst < 1 || groupMax < 1) {
                throw new IllegalArgumentException("pacing.chatBurst and pacing.groupMax must be >= 1, got "
                        + chatBurst + " and " + groupMax);
            }
        }
    }
}
