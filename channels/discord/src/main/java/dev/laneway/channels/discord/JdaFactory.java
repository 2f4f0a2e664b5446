package dev.laneway.channels.discord;

import dev.laneway.config.ChannelsConfig;
import java.net.URI;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import net.dv8tion.jda.api.JDA;
import net.dv8tion.jda.api.JDABuilder;
import net.dv8tion.jda.api.exceptions.InvalidTokenException;
import net.dv8tion.jda.api.requests.GatewayIntent;
import net.dv8tion.jda.api.requests.RestConfig;
import net.dv8tion.jda.api.utils.Compression;
import net.dv8tion.jda.api.utils.ConcurrentSessionController;
import net.dv8tion.jda.api.utils.MemberCachePolicy;
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
     * Logs in (a blocking token check) and starts connecting; events go to {@code listener},
     * every 429 to {@code rateLimited}.
     */
    static JDA build(ChannelsConfig.Discord config, Object listener, Runnable rateLimited) {
        validate(config);
        URI gateway = config.gatewayUrl();
        // like JDA's own default (wss://gateway.discord.gg/), so the query JDA appends follows a path
        boolean bare = (gateway.getRawPath() == null || gateway.getRawPath().isEmpty()) && gateway.getRawQuery() == null;
        String gatewayUrl = bare ? gateway + "/" : gateway.toString();
        JDABuilder builder = JDABuilder.createLight(config.token().value(),
                        GatewayIntent.GUILD_MESSAGES, GatewayIntent.DIRECT_MESSAGES, GatewayIntent.MESSAGE_CONTENT)
                .setMemberCachePolicy(MemberCachePolicy.NONE)
                .enableCache(CacheFlag.ROLE_TAGS)
                .setHttpClientBuilder(httpClient(rateLimited))
                .setRestConfig(new RestConfig().setBaseUrl(config.apiUrl().toString()))
                .setSessionController(new FixedGateway(gatewayUrl))
                .setEnableShutdownHook(false)
                .addEventListeners(listener);
        if (scheme(config.gatewayUrl()).equals("ws")) {
            builder.setCompression(Compression.NONE);
        }
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
