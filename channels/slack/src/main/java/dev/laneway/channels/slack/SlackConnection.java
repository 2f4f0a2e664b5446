package dev.laneway.channels.slack;

import com.slack.api.Slack;
import com.slack.api.SlackConfig;
import com.slack.api.socket_mode.SocketModeClient;
import com.slack.api.socket_mode.impl.SocketModeClientJavaWSImpl;
import com.slack.api.socket_mode.queue.impl.ConcurrentLinkedMessageQueue;
import com.slack.api.socket_mode.response.AckResponse;
import dev.laneway.config.ChannelsConfig;
import dev.laneway.core.channel.ExpiringKeys;
import dev.laneway.core.channel.InboundSink;
import dev.laneway.core.channel.KeyedSerialExecutor;
import dev.laneway.core.channel.Redactor;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One started Slack channel: the SDK instance pointed at {@code apiUrl}, the bot's identity from
 * {@code auth.test}, and a Socket Mode client on the Java-WebSocket backend with its listeners.
 *
 * <p>The client is built directly (not through {@code Slack.socketMode}) for two settings that
 * factory hardcodes: one message-processor thread instead of ten, so envelopes are handled in the
 * order Slack sent them, and the SDK's polling session monitor off, because
 * {@link ConnectionKeeper} reconnects on close and error events instead.
 *
 * <p>Threads: the SDK's message processor (hands off; acks what carries no message), a serial
 * virtual-thread worker for inbound conversion, one virtual thread per conversation with inbound
 * work (sender lookups, the hand-over, then the envelope's ack; see {@link InboundProcessor}), all
 * existing only while they have work, and one timer thread for reconnect checks and ack deadlines
 * ({@link EnvelopeAcks}), stopped with the socket by {@link #stopReceiving}. Reactions and
 * slash-command answers are sent on the gateway's outbox threads.
 */
final class SlackConnection {

    private static final Logger log = LoggerFactory.getLogger(SlackConnection.class);
    private static final int ONE_PROCESSOR_THREAD = 1;

    final SlackWeb web;
    final SlackReactions reactions;
    final SlashResponses slashResponses;
    private final SocketModeClient client;
    private final ConnectionKeeper keeper;

    private SlackConnection(SlackWeb web, SlackReactions reactions, SlashResponses slashResponses,
                            SocketModeClient client, ConnectionKeeper keeper) {
        this.web = web;
        this.reactions = reactions;
        this.slashResponses = slashResponses;
        this.client = client;
        this.keeper = keeper;
    }

    /** Checks the bot token, opens Socket Mode and starts delivering to {@code sink}. */
    static SlackConnection open(ChannelsConfig.Slack config, SlackOptions options, Redactor redactor,
                                ExpiringKeys engagedThreads, InboundSink sink) throws Exception {
        Slack slack = Slack.getInstance(sdkConfig(config));
        // one key: the whole channel's payloads, converted in the order Slack sent them
        KeyedSerialExecutor serial = KeyedSerialExecutor.onVirtualThreads("slack", "slack-inbound");
        Executor inbound = task -> serial.execute("inbound", task);
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("slack-timer").daemon().factory());
        SocketModeClient client = null;
        try {
            SlackWeb web = new SlackWeb(slack, slack.methods(config.botToken().value()), options.clock(), redactor,
                    () -> sink.rateLimited(SlackChannel.NAME));
            SlackWeb.Auth auth = web.authTest();
            BotIdentity bot = auth.bot();
            reportScopes(auth.scopes());
            SlackReactions reactions = reactions(web);
            SlashResponses slashResponses = new SlashResponses(options.clock());
            InboundProcessor processor = inboundProcessor(config, options, web, auth, engagedThreads, slashResponses,
                    sink);
            client = socketMode(slack, config.appToken().value(), redactor);
            SocketModeClient socket = client;
            ConnectionKeeper keeper = new ConnectionKeeper(client, timer, options.reconnectBackoff(), redactor);
            EnvelopeAcks acks = new EnvelopeAcks(id -> socket.sendSocketModeResponse(new AckResponse(id)), timer,
                    options.ackDeadline());
            EnvelopeHandler handler = new EnvelopeHandler(acks,
                    options.seen().forKind("slack-events:" + bot.userId(), options.dedupeTtl(), 50_000), inbound, processor,
                    keeper::connected);
            listen(client, handler, keeper);
            client.connect();
            log.info("Slack Socket Mode connecting as bot user {}", bot.userId());
            return new SlackConnection(web, reactions, slashResponses, client, keeper);
        } catch (Exception | Error e) {
            timer.shutdownNow();
            if (client != null) {
                closeQuietly(client);
            }
            closeQuietly(slack);
            throw e;
        }
    }

    private static SlackReactions reactions(SlackWeb web) {
        return new SlackReactions(new SlackReactions.Api() {
            @Override
            public String add(String channel, String ts, String name) {
                return web.addReaction(channel, ts, name);
            }

            @Override
            public String remove(String channel, String ts, String name) {
                return web.removeReaction(channel, ts, name);
            }
        });
    }

    /** One ERROR line at start naming every missing scope and what it breaks (an app installed before it was needed). */
    private static void reportScopes(BotScopes scopes) {
        String report = scopes.missingReport();
        if (report != null) {
            log.error("Slack: {}", report);
        } else if (!scopes.known()) {
            log.debug("Slack did not list the bot token's scopes (no x-oauth-scopes header); not checked");
        }
    }

    private static InboundProcessor inboundProcessor(ChannelsConfig.Slack config, SlackOptions options, SlackWeb web,
                                                     SlackWeb.Auth auth, ExpiringKeys engagedThreads,
                                                     SlashResponses slashResponses, InboundSink sink) {
        BotIdentity bot = auth.bot();
        SenderDirectory senders =
                new SenderDirectory(web::userInfo, options.clock(), options.userCacheTtl(), Duration.ofSeconds(30));
        EventConverter events = new EventConverter(bot, config.channelsRequireMention(), engagedThreads::contains);
        ExpiringKeys delivered = new ExpiringKeys(options.clock(), options.dedupeTtl(), 50_000);
        DirectChannels directChannels = new DirectChannels(web::isBotIm, web::isImMember, auth.scopes(), options.clock());
        return new InboundProcessor(events, senders, directChannels, slashResponses, delivered, engagedThreads,
                java.util.Set.copyOf(config.allowFrom()), KeyedSerialExecutor.onVirtualThreads("slack", "slack-conversation"), sink,
                (url, mrkdwn) -> web.respond(url, mrkdwn, true), options.clock());
    }

    private static SlackConfig sdkConfig(ChannelsConfig.Slack config) {
        String prefix = config.apiUrl().toString();
        SlackConfig sdk = new SlackConfig();           // SlackConfig.DEFAULT is immutable
        sdk.setMethodsEndpointUrlPrefix(prefix.endsWith("/") ? prefix : prefix + "/");
        sdk.setStatsEnabled(false);                    // no auth.test per token, no metrics threads
        return sdk;
    }

    private static SocketModeClient socketMode(Slack slack, String appToken, Redactor redactor) throws Exception {
        String url;
        try {
            url = slack.issueSocketModeUrl(appToken);
        } catch (Exception e) {
            throw new IllegalStateException("Slack apps.connections.open with channels.slack.appToken failed "
                    + "(an app-level token with the connections:write scope is needed): " + redactor.describe(e));
        }
        return new SocketModeClientJavaWSImpl(slack, appToken, url, ONE_PROCESSOR_THREAD,
                new ConcurrentLinkedMessageQueue(), true, false,
                SocketModeClient.DEFAULT_SESSION_MONITOR_INTERVAL_MILLISECONDS);
    }

    private static void listen(SocketModeClient client, EnvelopeHandler handler, ConnectionKeeper keeper) {
        client.addEventsApiEnvelopeListener(handler::onEventsApi);
        client.addSlashCommandsEnvelopeListener(handler::onSlashCommand);
        client.addInteractiveEnvelopeListener(handler::onInteractive);
        client.addWebSocketMessageListener(handler::onRawMessage);
        client.addWebSocketCloseListener((code, reason) -> {
            log.info("Slack Socket Mode connection closed (code {}, {})", code, reason);
            keeper.dropped();
        });
        client.addWebSocketErrorListener(error -> {
            log.info("Slack Socket Mode connection error: {}", error.toString());
            keeper.dropped();
        });
    }

    boolean isUp() {
        return keeper.isUp();
    }

    /**
     * Stops receiving: the reconnect timer and the Socket Mode client close, so no envelope arrives
     * any more. Sending keeps working for whoever still calls it: the gateway stops channels last,
     * after its outbox has delivered the replies of the runs that finished during its shutdown
     * grace; the Web API needs no thread of its own (OkHttp's idle connections expire by themselves).
     */
    void stopReceiving() {
        keeper.stop();
        closeQuietly(client);
    }

    private static void closeQuietly(SocketModeClient client) {
        try {
            client.close();
        } catch (Exception | LinkageError e) {
            log.warn("closing the Slack Socket Mode client failed: {}", e.toString());
        }
    }

    private static void closeQuietly(Slack slack) {
        try {
            slack.close();
        } catch (Exception e) {
            log.debug("closing the Slack SDK failed: {}", e.toString());
        }
    }
}
