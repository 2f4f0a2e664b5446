package dev.laneway.channels.slack;

import dev.laneway.core.Attachment;
import dev.laneway.core.channel.FileLocation;
import java.net.URI;
import java.util.Map;
import dev.laneway.config.ChannelsConfig;
import dev.laneway.core.Route;
import dev.laneway.core.channel.ChannelAdapter;
import dev.laneway.core.channel.ChannelCapabilities;
import dev.laneway.core.channel.ChatPacer;
import dev.laneway.core.channel.Streaming;
import dev.laneway.core.channel.ExpiringKeys;
import dev.laneway.core.channel.InboundSink;
import dev.laneway.core.channel.Receipt;
import dev.laneway.core.channel.ReceiptMode;
import dev.laneway.core.channel.Redactor;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Slack as a Laneway channel: Socket Mode (no public URL) on slack-api-client with the
 * Java-WebSocket backend.
 *
 * <ul>
 *   <li>Inbound: DMs, {@code app_mention}, and channel messages when {@code channels.requireMention}
 *       is false or the thread is one the bot takes part in; slash commands become the equivalent
 *       text. An event's envelope is acknowledged once its message is stored by the gateway (at
 *       the latest after 2.5 s; Slack redelivers what is not acknowledged, and never what is), any
 *       other envelope at once; retries are dropped.</li>
 *   <li>Threads: a channel message in a thread is answered in that thread; a top-level channel
 *       message is answered in a new thread under it. DMs are answered where they were written.</li>
 *   <li>Receipts (docs/behaviour.md §16.5): reactions on the message while it waits or runs (👀),
 *       merged (🤝), steered (⚡), dropped (🙈) or shed (🤷), removed right before its answer
 *       ({@link #react}; {@code channels.slack.receipts}).</li>
 *   <li>Outbound: Markdown converted to mrkdwn; each Slack channel paced at about one message a
 *       second with a short burst ({@link #pace}, waited out by the gateway's outbox), and a 429's
 *       {@code Retry-After} pauses that channel only (the outbox again); a slash command is
 *       answered through its {@code response_url} (privately for {@code /queue} and
 *       {@code /status}), which works in channels the bot is not in. The tokens are redacted from
 *       whatever Slack says before it is logged or thrown.</li>
 * </ul>
 *
 * <p>Concurrency: {@code lifecycle} guards starting and stopping; {@code connection} is volatile so
 * the outbox's threads see it without the lock. Everything else lives in {@link SlackConnection}.
 * {@code stopped} is read by {@link #connected} without the lock, hence volatile as well.
 */
public final class SlackChannel implements ChannelAdapter {

    public static final String NAME = "slack";
    /** Slack truncates at 40,000 characters and recommends about 4,000 per message. */
    static final int MAX_TEXT_LENGTH = 4000;
    /** No typing indicator: Slack bots have none; the 👀 receipt (docs/behaviour.md §16.5) takes its place. */
    private static final ChannelCapabilities CAPABILITIES =
            new ChannelCapabilities(MAX_TEXT_LENGTH, false, null, true, false);
    /** {@code chat.postMessage}: about one message per second per channel, short bursts allowed. */
    static final ChatPacer.Limits PACING = ChatPacer.Limits.perChat(Duration.ofSeconds(1), 3);

    private final ChannelsConfig.Slack config;
    private final SlackOptions options;
    private final Redactor redactor;
    private final ChatPacer pacer = new ChatPacer(PACING);
    private final ExpiringKeys engagedThreads;
    private final SlackStreams streams = new SlackStreams();
    private final ReentrantLock lifecycle = new ReentrantLock();
    private volatile SlackConnection connection;      // written under lifecycle
    private volatile boolean stopped;                 // written under lifecycle

    /** The channel for {@code channels.slack}; fails at once naming a missing or swapped token. */
    public static ChannelAdapter create(ChannelsConfig.Slack config) {
        return new SlackChannel(config, SlackOptions.defaults());
    }

    /** As {@link #create(ChannelsConfig.Slack)}, with event ids kept by {@code seen} (a fleet's on Redis). */
    public static ChannelAdapter create(ChannelsConfig.Slack config, dev.laneway.core.channel.SeenIds.Source seen) {
        return new SlackChannel(config, SlackOptions.defaults().withSeen(seen));
    }

    SlackChannel(ChannelsConfig.Slack config, SlackOptions options) {
        this.config = Objects.requireNonNull(config, "config");
        this.options = Objects.requireNonNull(options, "options");
        validate(config);
        this.redactor = Redactor.of(config.botToken().value(), config.appToken().value());
        this.engagedThreads = new ExpiringKeys(options.clock(), options.engagedThreadTtl(), 20_000);
    }

    private static void validate(ChannelsConfig.Slack config) {
        String bot = config.botToken().value();
        String app = config.appToken().value();
        if (bot.isBlank()) {
            throw new IllegalArgumentException(
                    "channels.slack.botToken is empty: set SLACK_BOT_TOKEN to the app's Bot User OAuth Token (xoxb-...)");
        }
        if (app.isBlank()) {
            throw new IllegalArgumentException("channels.slack.appToken is empty: set SLACK_APP_TOKEN to an "
                    + "app-level token with the connections:write scope (xapp-...)");
        }
        if (bot.startsWith("xapp-")) {
            throw new IllegalArgumentException("channels.slack.botToken holds an app-level token (xapp-...); "
                    + "it belongs in channels.slack.appToken, and botToken takes the xoxb- bot token");
        }
        if (app.startsWith("xoxb-")) {
            throw new IllegalArgumentException("channels.slack.appToken holds a bot token (xoxb-...); "
                    + "it belongs in channels.slack.botToken, and appToken takes the xapp- app-level token");
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ChannelCapabilities capabilities() {
        return CAPABILITIES;
    }

    @Override
    public void start(InboundSink sink) throws Exception {
        Objects.requireNonNull(sink, "sink");
        lifecycle.lock();
        try {
            if (stopped) {
                throw new IllegalStateException("the Slack channel was stopped and cannot start again");
            }
            if (connection != null) {
                throw new IllegalStateException("the Slack channel is already started");
            }
            connection = SlackConnection.open(config, options, redactor, engagedThreads, new InboundSink() {
                @Override
                public void accept(dev.laneway.core.InboundMessage message) {
                    streams.asked(message); // its answer may stream to its sender (D212)
                    sink.accept(message);
                }

                @Override
                public void rateLimited(String channel) {
                    sink.rateLimited(channel);
                }

                @Override
                public void reply(Route route, String text) {
                    sink.reply(route, text);
                }
            });
        } finally {
            lifecycle.unlock();
        }
    }

    /**
     * A file's {@code url_private(_download)}, fetched with the bot token (docs/behaviour.md §15.1; the app
     * needs the {@code files:read} scope). Never shareable: the URL is useless without the token.
     */
    @Override
    public FileLocation locate(Attachment attachment) {
        if (!attachment.fetchable()) {
            throw new IllegalArgumentException("Slack gave no URL for this file");
        }
        URI url;
        try {
            url = URI.create(attachment.ref());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Slack gave an unreadable URL for this file");
        }
        return new FileLocation(url, Map.of("Authorization", "Bearer " + config.botToken().value()), false);
    }

    @Override
    public void send(Route route, String text) throws Exception {
        postMessage(route, text);
    }

    /**
     * Streams answers as {@code channels.slack.streaming} says: in a thread by Slack's streaming methods
     * where it can (D212), else by {@code chat.postMessage} then {@code chat.update} (docs/behaviour.md
     * §16, D135); not the answer to a slash command, which goes through its {@code response_url}.
     */
    @Override
    public Streaming streaming(Route route) {
        SlackConnection live = connection;
        if (live != null && live.slashResponses.target(route.replyToMessageId()).isPresent()) {
            return Streaming.OFF;
        }
        return config.streaming();
    }

    /**
     * A live answer's first text (docs/behaviour.md §16.1, D212): a stream ({@code chat.startStream}) when
     * the reply is in a thread and, outside a DM, its asker is known, and the workspace takes streams;
     * else as {@link #send}. Returns the stream's or the message's {@code ts} (null for an answer
     * through a response_url).
     */
    @Override
    public String post(Route route, String text) throws Exception {
        SlackConnection live = connection;
        if (live == null) {
            throw new IllegalStateException("the Slack channel is not started; cannot send to " + route.chatId());
        }
        if (config.streamMethods() && live.slashResponses.target(route.replyToMessageId()).isEmpty()) {
            String ts = streams.start(live.web, route, isDirect(route.chatId()), text);
            if (ts != null) {
                if (!isDirect(route.chatId())) {
                    engagedThreads.add(threadKey(route.chatId(), route.threadId()));
                }
                return ts;
            }
        }
        return postMessage(route, text);
    }

    /** Whether the live message {@code ts} is a stream still open: it is stopped once its text is final. */
    @Override
    public boolean finishes(String ts) {
        return streams.isOpen(ts);
    }

    /**
     * The final text of the live message {@code ts}: an open stream is stopped showing it (D212); a
     * stream stopped earlier is replaced by {@code chat.update}; null: posted as a message.
     */
    @Override
    public String keep(Route route, String ts, String text) throws Exception {
        SlackConnection live = connection;
        if (live == null) {
            throw new IllegalStateException("the Slack channel is not started; cannot send to " + route.chatId());
        }
        if (ts == null) {
            return postMessage(route, text);
        }
        if (streams.isOpen(ts)) {
            streams.finish(live.web, route.chatId(), ts, text);
        } else if (!streams.showsAlready(ts, text)) {
            live.web.updateMessage(route.chatId(), ts, MrkdwnFormatter.format(text));
        }
        return ts;
    }

    /** {@code chat.postMessage} (or a slash command's response_url); returns the message's ts, or null. */
    private String postMessage(Route route, String text) throws Exception {
        SlackConnection live = connection;
        if (live == null) {
            throw new IllegalStateException("the Slack channel is not started; cannot send to " + route.chatId());
        }
        String mrkdwn = MrkdwnFormatter.format(text);
        var slashCommand = live.slashResponses.target(route.replyToMessageId());
        if (slashCommand.isPresent()
                && live.web.respond(slashCommand.get().url(), mrkdwn, slashCommand.get().ephemeral())) {
            return null;
        }
        // a message, or a slash command whose response_url failed or expired: post in the conversation
        String ts = live.web.postMessage(route.chatId(), route.threadId(), mrkdwn);
        if (route.threadId() != null && !isDirect(route.chatId())) {
            engagedThreads.add(threadKey(route.chatId(), route.threadId()));
        }
        return ts;
    }

    /** {@code chat.update} of the bot's message {@code ts}. */
    @Override
    public void edit(Route route, String ts, String text) throws Exception {
        SlackConnection live = connection;
        if (live == null) {
            throw new IllegalStateException("the Slack channel is not started; cannot edit in " + route.chatId());
        }
        if (streams.isOpen(ts)) {
            streams.update(live.web, route.chatId(), ts, text);
            return;
        }
        live.web.updateMessage(route.chatId(), ts, MrkdwnFormatter.format(text));
        streams.replacedWith(ts, text);
    }

    /** Books the next message's slot in the route's Slack channel; how long the outbox waits before sending it. */
    @Override
    public Duration pace(Route route) {
        return pacer.reserve(route.chatId(), false, options.clock().instant());
    }

    /** {@code channels.slack.receipts} (docs/behaviour.md §16.5). */
    @Override
    public ReceiptMode receipts() {
        return config.receipts();
    }

    /**
     * A receipt as a reaction ({@code reactions.remove}, then {@code reactions.add}); 👀 for a
     * message that waits or runs, as Slack bots have no typing indicator.
     */
    @Override
    public void react(Route route, Receipt shown, Receipt replaced) throws Exception {
        SlackConnection live = connection;
        if (live == null) {
            throw new IllegalStateException("the Slack channel is not started; cannot react in " + route.chatId());
        }
        live.reactions.react(route, shown, replaced);
    }

    @Override
    public boolean connected() {
        SlackConnection live = connection;
        return !stopped && live != null && live.isUp();
    }

    /**
     * Disconnects from Socket Mode: nothing new arrives. The gateway stops channels last, once the
     * runs that finished during its shutdown grace have had their replies delivered; sending still
     * works afterwards for any late caller.
     */
    @Override
    public void stop() {
        lifecycle.lock();
        try {
            if (!stopped && connection != null) {
                connection.stopReceiving();
            }
            stopped = true;
        } finally {
            lifecycle.unlock();
        }
    }

    /** The key of a channel thread in the engaged-thread set. */
    static String threadKey(String chatId, String threadTs) {
        return chatId + ":" + threadTs;
    }

    /** Slack DM channel ids start with {@code D}. */
    static boolean isDirect(String chatId) {
        return chatId.startsWith("D");
    }
}
