package dev.laneway.channels.discord;

import dev.laneway.config.ChannelsConfig;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import net.dv8tion.jda.api.JDA;
import net.dv8tion.jda.api.JDABuilder;
import net.dv8tion.jda.api.exceptions.InvalidTokenException;
import net.dv8tion.jda.api.requests.GatewayIntent;
import net.dv8tion.jda.api.requests.RestConfig;
import net.dv8tion.jda.api.requests.RestRateLimiter;
import net.dv8tion.jda.api.utils.Compression;
import net.dv8tion.jda.api.utils.ConcurrentSessionController;
import net.dv8tion.jda.api.utils.MemberCachePolicy;
import net.dv8tion.jda.api.utils.SessionController;
import net.dv8tion.jda.api.utils.cache.CacheFlag;
import okhttp3.ConnectionPool;
import okhttp3.Dispatcher;
import okhttp3.OkHttpClient;
import okhttp3.Response;

/**
 * Builds the JDA client: light cache (plus role tags, to recognise the bot's own role), no member
 * cache, the intents a chat bot needs (guild messages, direct messages, message content), and the
 * configured REST and gateway URLs so a proxy or a test server can stand in for Discord. A plain
 * {@code ws://} gateway gets no compression (test servers speak plain JSON frames). Every HTTP 429
 * Discord sends is reported to {@code rateLimited} (JDA's rate limiter still waits it out and
 * retries; it has no hook of its own for that, so an OkHttp interceptor watches the responses).
 */
final class JdaFactory {

    private JdaFactory() {
    }

    /** Checks the URLs and token up front, with errors that name the setting. */
    static void validate(ChannelsConfig.Discord config) {
        if (config.token().isEmpty()) {
            throw new IllegalArgumentException(
                    "channels.discord.token is empty: set it (e.g. token: ${DISCORD_BOT_TOKEN}) to the bot token from the developer portal");
        }
        String api = scheme(config.apiUrl());
        if (!api.equals("http") && !api.equals("https")) {
            throw new IllegalArgumentException("channels.discord.apiUrl must be an http(s) URL, got " + config.apiUrl());
        }
        String gateway = scheme(config.gatewayUrl());
        if (!gateway.equals("ws") && !gateway.equals("wss")) {
            throw new IllegalArgumentException("channels.discord.gatewayUrl must be a ws:// or wss:// URL, got " + config.gatewayUrl());
        }
    }

    /**
     * The session controller every client of one channel shares: it connects to the configured
     * gateway URL, spaces the shards' IDENTIFYs as Discord asks (one per 5 s per bucket; JDA's
     * {@link ConcurrentSessionController}), and holds the bot's global REST rate limit for all of
     * them.
     */
    static SessionController sessions(ChannelsConfig.Discord config) {
        URI gateway = config.gatewayUrl();
        // like JDA's own default (wss://gateway.discord.gg/), so the query JDA appends follows a path
        boolean bare = (gateway.getRawPath() == null || gateway.getRawPath().isEmpty()) && gateway.getRawQuery() == null;
        return new FixedGateway(bare ? gateway + "/" : gateway.toString());
    }

    /**
     * Logs in (a blocking token check) and starts connecting, as the only shard; events go to
     * {@code listener}, every 429 to {@code rateLimited}.
     */
    static JDA build(ChannelsConfig.Discord config, Object listener, Runnable rateLimited) {
        return build(config, listener, rateLimited, 0, 1, sessions(config));
    }

    /**
     * Logs in and starts connecting shard {@code shard} of {@code total} (Discord's
     * {@code [shard_id, num_shards]} in IDENTIFY; none when the bot has one shard) through
     * {@code sessions}, which queues its connection behind the others' (docs/behaviour.md §17, "Ingress").
     */
    static JDA build(ChannelsConfig.Discord config, Object listener, Runnable rateLimited, int shard, int total,
                     SessionController sessions) {
        validate(config);
        JDABuilder builder = JDABuilder.createLight(config.token().value(),
                        GatewayIntent.GUILD_MESSAGES, GatewayIntent.DIRECT_MESSAGES, GatewayIntent.MESSAGE_CONTENT)
                .setMemberCachePolicy(MemberCachePolicy.NONE)
                .enableCache(CacheFlag.ROLE_TAGS)
                .addEventListeners(listener);
        if (total > 1) {
            builder.useSharding(shard, total);
        }
        return login(configure(builder, config, rateLimited, sessions));
    }

    /**
     * A client for REST calls alone (docs/behaviour.md §17, "Ingress"): it logs in (the token check)
     * but its gateway session is never started, because {@code Parked} keeps the connection JDA
     * queues with it. A fleet instance sends through it to channels whose shard it does not hold.
     * It shares {@code sessions}' global rate limit with the channel's shards.
     */
    static JDA restOnly(ChannelsConfig.Discord config, Runnable rateLimited, SessionController sessions) {
        validate(config);
        JDABuilder builder = JDABuilder.createLight(config.token().value(), List.of());
        return login(configure(builder, config, rateLimited, new Parked(sessions)));
    }

    private static JDABuilder configure(JDABuilder builder, ChannelsConfig.Discord config, Runnable rateLimited,
                                        SessionController sessions) {
        builder.setHttpClientBuilder(httpClient(rateLimited))
                .setRestConfig(new RestConfig().setBaseUrl(config.apiUrl().toString()))
                .setSessionController(sessions)
                .setEnableShutdownHook(false);
        if (scheme(config.gatewayUrl()).equals("ws")) {
            builder.setCompression(Compression.NONE);
        }
        return builder;
    }

    private static JDA login(JDABuilder builder) {
        try {
            return builder.build();
        } catch (InvalidTokenException e) {
            throw new IllegalStateException("Discord rejected the bot token (channels.discord.token): " + e.getMessage(), e);
        }
    }

    /** JDA's own defaults (25 requests per host, a small idle pool) plus the 429 watcher. */
    private static OkHttpClient.Builder httpClient(Runnable rateLimited) {
        Dispatcher dispatcher = new Dispatcher();
        dispatcher.setMaxRequestsPerHost(25);
        return new OkHttpClient.Builder()
                .connectionPool(new ConnectionPool(5, 10, TimeUnit.SECONDS))
                .dispatcher(dispatcher)
                .addInterceptor(chain -> {
                    Response response = chain.proceed(chain.request());
                    if (response.code() == 429) {
                        reportQuietly(rateLimited);
                    }
                    return response;
                });
    }

    private static void reportQuietly(Runnable rateLimited) {
        try {
            rateLimited.run();
        } catch (RuntimeException e) {
            // counting must never break a request
        }
    }

    private static String scheme(URI uri) {
        return uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    }

    /**
     * Never starts the gateway session JDA queues with it (a REST-only client); the global rate
     * limit and the gateway URL are the shared controller's.
     */
    private record Parked(SessionController shared) implements SessionController {
        @Override
        public void appendSession(SessionConnectNode node) {
            // kept from connecting: this client only makes REST calls
        }

        @Override
        public void removeSession(SessionConnectNode node) {
        }

        @Override
        public RestRateLimiter.GlobalRateLimit getRateLimitHandle() {
            return shared.getRateLimitHandle();
        }

        @Override
        public String getGateway() {
            return shared.getGateway();
        }

        @Override
        public ShardedGateway getShardedGateway(JDA api) {
            return shared.getShardedGateway(api);
        }
    }

    /** A session controller that always connects to the configured gateway URL. */
    private static final class FixedGateway extends ConcurrentSessionController {
        private final String url;

        FixedGateway(String url) {
            this.url = url;
        }

        @Override
        public String getGateway() {
            return url;
        }
    }
}
