package dev.laneway.channels.telegram;

import dev.laneway.core.channel.Receipt;
import dev.laneway.core.channel.ReceiptMode;
import dev.laneway.core.Attachment;
import dev.laneway.core.channel.FileLocation;
import java.net.URI;
import java.util.Map;
import org.telegram.telegrambots.meta.api.methods.GetFile;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.laneway.config.ChannelsConfig;
import dev.laneway.config.TelegramWebhook;
import dev.laneway.core.Route;
import dev.laneway.core.channel.Backoff;
import dev.laneway.core.channel.ChannelAdapter;
import dev.laneway.core.channel.ChannelCapabilities;
import dev.laneway.core.channel.ChatPacer;
import dev.laneway.core.channel.ExpiringKeys;
import dev.laneway.core.channel.InboundSink;
import dev.laneway.core.channel.KeyedSerialExecutor;
import dev.laneway.core.channel.Redactor;
import dev.laneway.core.channel.SeenIds;
import dev.laneway.core.channel.SendFailure;
import dev.laneway.core.channel.Streaming;
import java.io.IOException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import okhttp3.Dispatcher;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.telegram.telegrambots.client.okhttp.OkHttpTelegramClient;
import org.telegram.telegrambots.longpolling.TelegramBotsLongPollingApplication;
import org.telegram.telegrambots.meta.api.methods.GetMe;
import org.telegram.telegrambots.meta.api.methods.commands.SetMyCommands;
import org.telegram.telegrambots.meta.api.methods.groupadministration.GetChatAdministrators;
import org.telegram.telegrambots.meta.api.methods.updates.GetUpdates;
import org.telegram.telegrambots.meta.api.methods.updates.SetWebhook;
import org.telegram.telegrambots.meta.api.objects.User;
import org.telegram.telegrambots.meta.api.objects.chatmember.ChatMember;
import org.telegram.telegrambots.meta.api.objects.commands.BotCommand;
import org.telegram.telegrambots.meta.exceptions.TelegramApiException;
import org.telegram.telegrambots.meta.exceptions.TelegramApiRequestException;
import org.telegram.telegrambots.meta.generics.TelegramClient;

/**
 * Telegram as a Laneway channel, on telegrambots long polling. Private chats, groups, supergroups
 * and forum topics (the topic is the thread).
 *
 * <p>Start: {@code getMe} (who the bot is, for mentions), {@code setMyCommands} (the command menu),
 * then a long-polling session. The SDK's polling thread hands each batch to an
 * {@link UpdateHandler}, which never waits for a run. A failed poll (network error, server
 * restarting) is retried with {@link PollingBackOff}; confirmed offsets plus the update ids seen
 * (an {@link ExpiringKeys}, or the fleet's {@link SeenIds} on Redis) keep any update from being processed twice, and
 * {@link PoisonUpdateInterceptor} steps over an update the SDK cannot read, so it cannot fail every
 * poll after it. Outbound goes through {@link TelegramSender}: each message once, paced per chat by
 * the gateway's outbox (which asks {@link #pace}), with failures it can act on (a 429's
 * {@code retry_after} for that chat only, a 5xx to try again); safe formatting. The channel's own
 * "text only" notice goes through the outbox like every reply. Every 429 Telegram sends is
 * reported to the sink ({@code InboundSink.rateLimited}). The token is redacted from everything
 * the Bot API says before it is logged or thrown.
 *
 * <p>Instead of polling, {@code mode: webhook} takes updates over HTTP on every instance
 * ({@link WebhookReceiver}); in a fleet, polling runs on the one instance holding the poller's lease
 * ({@link PollerElection}). Both: docs/behaviour.md §17, "Ingress".
 *
 * <p>{@link #stopReceiving} (the gateway's first step at shutdown) ends polling without confirming
 * anything more, so what was not handed over stays on the server for the next start; {@link #stop}
 * releases the rest. Neither stops sending: the gateway still delivers the replies of runs that
 * finish during its shutdown grace period. A clean stop logs no error ({@link PollGate}).
 *
 * <p>Concurrency: {@code lifecycle} guards {@code polling}, {@code receiving} and {@code election}
 * (an election's own lock is taken before it, never after); sending is thread-safe and independent
 * of it; {@code sink} is volatile because the sender's threads read it to report rate limits.
 */
public final class TelegramChannel implements ChannelAdapter {

    public static final String NAME = UpdateConverter.CHANNEL;
    static final List<BotCommand> COMMANDS = List.of(
            new BotCommand("queue", "How messages wait while I am busy; /queue status or /queue cancel for yours"),
            new BotCommand("status", "Queue settings and what is running"),
            new BotCommand("stop", "Stop the current answer and clear the queue"),
            new BotCommand("new", "Start a new conversation"));
    /** The longest a group command waits for {@code getChatAdministrators} before it runs as a member's. */
    static final Duration ADMIN_LOOKUP_BOUND = Duration.ofSeconds(5);
    private static final int REMEMBERED_UPDATES = 10_000;
    /** Telegram keeps an unconfirmed update for at most a day: an id older than that cannot come again. */
    private static final Duration REMEMBERED_UPDATES_FOR = Duration.ofHours(24);
    private static final Duration INBOUND_DRAIN = Duration.ofSeconds(5);
    private static final Logger log = LoggerFactory.getLogger(TelegramChannel.class);

    private final TelegramSettings settings;
    private final InstantSource clock;
    private final ObjectMapper mapper = new ObjectMapper();
    private final TelegramClient client;
    private final TelegramSender sender;
    private final Redactor redactor;
    private final SeenIds seenUpdates;
    private final TelegramWebhook webhook; // null: polling
    private final PollerFleet fleet;       // null: this instance polls alone
    private PollerElection election;       // guarded by lifecycle; polling in a fleet only
    private final ReentrantLock lifecycle = new ReentrantLock();
    private volatile InboundSink sink;
    private Polling polling; // guarded by lifecycle
    private Webhook receiving; // guarded by lifecycle; webhook mode only

    public TelegramChannel(TelegramSettings settings) {
        this(settings, InstantSource.system());
    }

    /** With an injected clock (pacing, caches, {@code receivedAt}), so tests need not wait. */
    public TelegramChannel(TelegramSettings settings, InstantSource clock) {
        this(settings, clock, null, SeenIds.Source.local(clock));
    }

    /**
     * In {@code webhook} mode when {@code webhook} is not null, else polling; the update ids already
     * taken come from {@code seen} (fleet-wide on Redis: docs/behaviour.md §17, "Ingress").
     */
    public TelegramChannel(TelegramSettings settings, InstantSource clock, TelegramWebhook webhook,
                           SeenIds.Source seen) {
        this(settings, clock, webhook, seen, null);
    }

    /**
     * As above; in polling mode with a {@code fleet}, this instance polls only while it holds the
     * fleet's poller lease for the token ({@link PollerElection}).
     */
    public TelegramChannel(TelegramSettings settings, InstantSource clock, TelegramWebhook webhook,
                           SeenIds.Source seen, PollerFleet fleet) {
        this.fleet = fleet;
        this.settings = settings;
        this.clock = clock;
        this.webhook = webhook;
        this.redactor = redactorFor(settings.token().value(), webhook == null ? null : webhook.secretToken().value());
        this.seenUpdates = seen.forKind("telegram-updates:" + botId(settings.token().value()), REMEMBERED_UPDATES_FOR,
                REMEMBERED_UPDATES);
        OkHttpClient api = httpClient("telegram-api-", Duration.ofSeconds(30));
        this.client = new OkHttpTelegramClient(mapper, api, settings.token().value(), settings.telegramUrl());
        // the sender's calls go over the same connections, each reaching Telegram at most once (D249)
        TelegramClient sends = new OkHttpTelegramClient(mapper, new SendOnce().guard(api), settings.token().value(),
                settings.telegramUrl());
        TelegramSettings.Pacing pacing = settings.pacing();
        ChatPacer pacer = new ChatPacer(new ChatPacer.Limits(pacing.chatInterval(), pacing.chatBurst(), pacing.groupMax(),
                pacing.groupWindow()));
        this.sender = new TelegramSender(sends, pacer, clock, redactor, this::reportRateLimit, settings.drafts());
    }

    /** The whole token and its secret half (after the colon), which is what identifies the bot's key. */
    static Redactor redactorFor(String token) {
        return redactorFor(token, null);
    }

    /** As {@link #redactorFor(String)}, and the webhook's secret token when there is one. */
    static Redactor redactorFor(String token, String webhookSecret) {
        int colon = token.indexOf(':');
        return Redactor.of(token, colon >= 0 && colon < token.length() - 1 ? token.substring(colon + 1) : null,
                webhookSecret);
    }

    /** The bot's id, the token's public half before the colon (never its secret half). */
    static String botId(String token) {
        int colon = token.indexOf(':');
        return colon > 0 ? token.substring(0, colon) : "bot";
    }

    /**
     * The name of the fleet's poller lease for this bot token, {@code ingress:telegram:<16 hex of its
     * SHA-256>} (never the token itself), for {@code laneway fleet} and {@code /status}
     * (docs/behaviour.md §17, "Ingress").
     */
    public static String pollerLease(String token) {
        return PollerElection.keyFor(token).value();
    }

    /** The channel for {@code channels.telegram} of the YAML config (what the app wires in). */
    public static ChannelAdapter create(ChannelsConfig.Telegram config) {
        return create(config, SeenIds.Source.local(InstantSource.system()));
    }

    /** As {@link #create(ChannelsConfig.Telegram)}, with the update ids seen kept by {@code seen} (a fleet's). */
    public static ChannelAdapter create(ChannelsConfig.Telegram config, SeenIds.Source seen) {
        return create(config, seen, null);
    }

    /** As above; in polling mode, {@code fleet} (null: alone) elects the one instance that polls. */
    public static ChannelAdapter create(ChannelsConfig.Telegram config, SeenIds.Source seen, PollerFleet fleet) {
        return new TelegramChannel(TelegramSettings.fromConfig(config), InstantSource.system(), config.webhook(), seen,
                fleet);
    }

    /**
     * A fleet's poller election: its session leases (the poller's lease is one of them), the timer
     * and executor its checks run on, and how often an instance that does not poll checks.
     */
    public record PollerFleet(dev.laneway.core.fleet.SessionLeases leases, dev.laneway.core.time.Scheduler timer,
                              java.util.concurrent.Executor executor, Duration checkEvery) {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ChannelCapabilities capabilities() {
        return new ChannelCapabilities(TelegramSender.MAX_LENGTH, true, settings.typingRefresh(), true);
    }

    @Override
    public void start(InboundSink sink) throws TelegramApiException {
        PollerElection elect;
        lifecycle.lock();
        try {
            if (polling != null || receiving != null || election != null) {
                throw new IllegalStateException("telegram channel is already started");
            }
            this.sink = sink;
            BotIdentity bot = identify();
            publishCommands();
            TelegramSender.warmReplyReader();   // before the first update: docs/decisions.md D225
            if (webhook != null) {
                receiving = Webhook.start(this, bot, sink);
                log.info("telegram: taking webhook updates on {}{} as @{} (Telegram posts to {})",
                        receiving.receiver.address(), webhook.path(), bot.username(), webhook.url());
                return;
            }
            if (fleet == null) {
                polling = Polling.start(this, bot, sink);
                log.info("telegram: polling {} as @{}", settings.apiUrl(), bot.username());
                return;
            }
            elect = new PollerElection(fleet.leases(), settings.token().value(), fleet.timer(), fleet.executor(),
                    fleet.checkEvery(), new PollerElection.Poller() {
                        @Override
                        public void startPolling() throws TelegramApiException {
                            startElectedPolling(bot, sink);
                        }

                        @Override
                        public void stopPolling() {
                            stopElectedPolling();
                        }
                    });
            election = elect;
        } finally {
            lifecycle.unlock();
        }
        elect.start();      // outside lifecycle: the election's lock comes first (PollerElection)
        log.info("telegram: one instance of the fleet polls {} (lease {}); this one: {}", settings.apiUrl(),
                elect.key().value(), elect.polling() ? "polls" : "stands by, checking every "
                        + fleet.checkEvery().toMillis() + " ms");
    }

    private void startElectedPolling(BotIdentity bot, InboundSink sink) throws TelegramApiException {
        lifecycle.lock();
        try {
            if (polling == null) {
                polling = Polling.start(this, bot, sink);
                log.info("telegram: polling {} as @{} for the fleet", settings.apiUrl(), bot.username());
            }
        } finally {
            lifecycle.unlock();
        }
    }

    private void stopElectedPolling() {
        Polling stopping = takePolling();
        if (stopping != null) {
            stopping.close();
        }
    }

    /** Takes the polling out of the channel for the caller to close; null when it does not poll. */
    private Polling takePolling() {
        lifecycle.lock();
        try {
            Polling taken = polling;
            polling = null;
            return taken;
        } finally {
            lifecycle.unlock();
        }
    }

    /**
     * Asks the Bot API's {@code getFile} for the attachment's path, then names the download URL on the
     * same server: {@code <apiUrl>/file/bot<token>/<file_path>}, so a self-hosted Bot API server serves
     * its own files (docs/behaviour.md §15.1). The URL holds the token: never shareable, never logged.
     * The exceptions carry the redacted reason and no cause.
     */
    @Override
    public FileLocation locate(Attachment attachment) throws IOException {
        if (!attachment.fetchable()) {
            throw new IllegalArgumentException("Telegram gave no file id for this " + attachment.kind());
        }
        org.telegram.telegrambots.meta.api.objects.File file;
        try {
            file = client.execute(GetFile.builder().fileId(attachment.ref()).build());
        } catch (TelegramApiRequestException e) {
            throw new IOException("Telegram refused getFile (" + describe(e) + ")");
        } catch (TelegramApiException e) {
            throw new IOException("getFile failed (" + describe(e) + ")");
        }
        String path = file == null ? null : file.getFilePath();
        if (path == null || path.isBlank()) {
            throw new IOException("Telegram gave no path for this file (it may be larger than the Bot API serves)");
        }
        String root = settings.apiUrl().toString().replaceAll("/+$", "");
        String relative = path.startsWith("/") ? path.substring(1) : path;
        return new FileLocation(URI.create(root + "/file/bot" + settings.token().value() + "/"
                + relative.replace(" ", "%20")), Map.of(), false);
    }

    @Override
    public void send(Route route, String text) throws SendFailure {
        sender.send(route, text);
    }

    /**
     * In a group, a live answer changes at most once per this long: a group takes about 20 messages
     * and edits a minute, so a faster stream would spend the minute's budget and hold back its own
     * final text (docs/behaviour.md §16.1).
     */
    static final Duration GROUP_STREAMING_INTERVAL = Duration.ofSeconds(3);

    /**
     * Streams answers as {@code channels.telegram.streaming} says: as a draft in a private chat with
     * {@code drafts} on, else send, then edit (docs/behaviour.md §16, D211); in a group at most once per
     * {@link #GROUP_STREAMING_INTERVAL}.
     */
    @Override
    public Streaming streaming(Route route) {
        Streaming streaming = settings.streaming();
        if (streaming.on() && TelegramSender.isGroup(route.chatId())
                && streaming.minEditInterval().compareTo(GROUP_STREAMING_INTERVAL) < 0) {
            return Streaming.every(GROUP_STREAMING_INTERVAL);
        }
        return streaming;
    }

    @Override
    public String post(Route route, String text) throws SendFailure {
        return sender.post(route, text);
    }

    @Override
    public void edit(Route route, String messageId, String text) throws SendFailure {
        sender.edit(route, messageId, text);
    }

    /** A private chat's live answer is a draft (docs/behaviour.md §16.1), unless its Bot API refused drafts. */
    @Override
    public boolean draft(String messageId) {
        return TelegramSender.isDraft(messageId);
    }

    /** The final text of a draft, or the rest of an answer that can no longer be edited: {@code sendMessage}. */
    @Override
    public String keep(Route route, String draftId, String text) throws SendFailure {
        return sender.keep(route, text);
    }

    @Override
    public Duration pace(Route route) {
        return sender.pace(route);
    }

    @Override
    public void typing(Route route) throws SendFailure {
        sender.typing(route);
    }

    /** {@code channels.telegram.receipts} (docs/behaviour.md §16.5). */
    @Override
    public ReceiptMode receipts() {
        return settings.receipts();
    }

    /** A receipt as the bot's reaction on the message ({@code setMessageReaction}, replacing the one it showed). */
    @Override
    public void react(Route route, Receipt shown, Receipt replaced) throws SendFailure {
        sender.react(route, shown);
    }

    @Override
    public boolean connected() {
        lifecycle.lock();
        try {
            if (receiving != null) {
                return receiving.receiver.receiving();
            }
            if (election != null && polling == null) {
                return true;      // another instance of the fleet polls; this one stands by
            }
            return polling != null && polling.receiving() && polling.backOff.healthy();
        } finally {
            lifecycle.unlock();
        }
    }

    /** Whether this instance polls now (in a fleet: whether it holds the poller lease and polls). */
    boolean pollingNow() {
        lifecycle.lock();
        try {
            return polling != null;
        } finally {
            lifecycle.unlock();
        }
    }

    /** Polls that failed since the last successful one (0 when healthy or not started). */
    int failedPolls() {
        lifecycle.lock();
        try {
            return polling == null ? 0 : polling.backOff.failures();
        } finally {
            lifecycle.unlock();
        }
    }

    /**
     * Stops long polling and nothing else (the gateway's first step at shutdown): updates not fetched
     * yet, and any fetched but not handed over, stay on the server unconfirmed and come at the next
     * start; a batch being handed over is waited for. Sending goes on until {@link #stop}.
     */
    @Override
    public void stopReceiving() {
        Polling current;
        Webhook hook;
        PollerElection elect;
        lifecycle.lock();
        try {
            current = polling;
            hook = receiving;
            elect = election;
        } finally {
            lifecycle.unlock();
        }
        if (elect != null) {
            elect.stop();          // stops polling here and hands the lease over at once
            return;
        }
        if (hook != null && hook.receiver.receiving()) {
            hook.receiver.stopReceiving(INBOUND_DRAIN);
            log.info("telegram: stopped taking webhook updates; Telegram sends those refused meanwhile again");
        }
        if (current != null && !current.stopping.get()) {
            current.stopReceiving();
            log.info("telegram: stopped fetching updates; those not fetched yet stay on the server for the next start");
        }
    }

    @Override
    public void stop() {
        Polling stopping;
        Webhook hook;
        PollerElection elect;
        lifecycle.lock();
        try {
            elect = election;
            election = null;
            hook = receiving;
            receiving = null;
        } finally {
            lifecycle.unlock();
        }
        if (elect != null) {
            elect.stop();
        }
        stopping = takePolling();
        if (hook != null) {
            hook.close();
            log.info("telegram: webhook receiver stopped");
        }
        if (stopping != null) {
            stopping.close();
            log.info("telegram: polling stopped");
        }
    }

    private BotIdentity identify() throws TelegramApiException {
        User me;
        try {
            me = client.execute(new GetMe());
        } catch (TelegramApiRequestException e) {
            if (e.getErrorCode() != null && (e.getErrorCode() == 401 || e.getErrorCode() == 404)) {
                throw new TelegramApiException("telegram: the Bot API at " + settings.apiUrl()
                        + " rejected the bot token; check channels.telegram.token (TELEGRAM_BOT_TOKEN)");
            }
            throw new TelegramApiException("telegram: getMe failed at " + settings.apiUrl() + " (" + describe(e) + ")");
        } catch (TelegramApiException e) {
            throw new TelegramApiException("telegram: cannot reach the Bot API at " + settings.apiUrl() + " ("
                    + describe(e) + ")");
        }
        if (me.getUserName() == null) {
            throw new TelegramApiException("telegram: getMe returned no username; is this a bot token?");
        }
        return new BotIdentity(me.getId(), me.getUserName());
    }

    /**
     * The exception's message and its root cause's, which the SDK's wrappers hide, without the
     * token. The exceptions built from it carry no cause, so nothing unredacted travels on.
     */
    String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return redactor.redact(root == e ? String.valueOf(e.getMessage()) : e.getMessage() + ": " + root);
    }

    private void publishCommands() {
        try {
            client.execute(SetMyCommands.builder().commands(COMMANDS).build());
        } catch (TelegramApiException e) {
            log.warn("telegram: could not publish the command menu (setMyCommands): {}", describe(e));
        }
    }

    /** The chat's administrators; a 429 becomes a {@link AdminCache.FloodWait} with its {@code retry_after}. */
    private Set<Long> administrators(long chatId) throws IOException, AdminCache.FloodWait {
        Set<Long> ids = new HashSet<>();
        List<ChatMember> members;
        try {
            members = client.execute(GetChatAdministrators.builder().chatId(chatId).build());
        } catch (TelegramApiRequestException e) {
            if (TelegramSender.isRateLimit(e)) {
                reportRateLimit();
                throw new AdminCache.FloodWait(TelegramSender.retryAfter(e), null);
            }
            throw new IOException("getChatAdministrators failed: " + describe(e));
        } catch (TelegramApiException e) {
            throw new IOException("getChatAdministrators failed: " + describe(e));
        }
        for (ChatMember member : members) {
            if (member.getUser() != null) {
                ids.add(member.getUser().getId());
            }
        }
        return ids;
    }

    /** Telegram answered 429: counted for operators. */
    private void reportRateLimit() {
        InboundSink current = sink;
        if (current != null) {
            current.rateLimited(NAME);
        }
    }

    /** What polling and the webhook hand updates to: seen ids, conversion, per-chat order on {@code inbound}. */
    private UpdateHandler handler(BotIdentity bot, InboundSink sink, ExecutorService inbound) {
        ThreadFactory lookups = Thread.ofVirtual().name("telegram-admins-", 0).factory();   // thread-safe
        AdminCache admins = new AdminCache(this::administrators, settings.adminCacheTtl(), ADMIN_LOOKUP_BOUND,
                clock, task -> lookups.newThread(task).start());
        return new UpdateHandler(seenUpdates, new UpdateConverter(bot, settings.groupsRequireMention(), clock),
                new KeyedSerialExecutor("telegram", inbound), admins, sink, settings.allowFrom(), sink::reply);
    }

    /** Registers the webhook with Telegram: its public url, the secret token, message updates only. */
    private void setWebhook() throws TelegramApiException {
        try {
            client.execute(SetWebhook.builder()
                    .url(webhook.url().toString())
                    .secretToken(webhook.secretToken().value())
                    .allowedUpdates(List.of("message"))
                    .build());
        } catch (TelegramApiException e) {
            throw new TelegramApiException("telegram: setWebhook to " + webhook.url() + " failed at " + settings.apiUrl()
                    + " (" + describe(e) + ")");
        }
    }

    /** Webhook address of a started channel in webhook mode (tests: the port bound for 0). */
    java.net.InetSocketAddress webhookAddress() {
        lifecycle.lock();
        try {
            return receiving == null ? null : receiving.receiver.address();
        } finally {
            lifecycle.unlock();
        }
    }

    /** The webhook receiver and the executor its updates are handed over on. */
    private record Webhook(WebhookReceiver receiver, ExecutorService inbound) {

        static Webhook start(TelegramChannel channel, BotIdentity bot, InboundSink sink) throws TelegramApiException {
            ExecutorService inbound = Executors.newThreadPerTaskExecutor(
                    Thread.ofVirtual().name("telegram-inbound-", 0).factory());
            WebhookReceiver receiver;
            try {
                receiver = WebhookReceiver.start(channel.webhook, channel.mapper, channel.handler(bot, sink, inbound));
            } catch (IOException e) {
                inbound.shutdownNow();
                throw new TelegramApiException(e.getMessage());
            }
            try {
                channel.setWebhook();    // only once this instance can take what Telegram posts
            } catch (TelegramApiException e) {
                receiver.close(Duration.ZERO);
                inbound.shutdownNow();
                throw e;
            }
            return new Webhook(receiver, inbound);
        }

        void close() {
            receiver.close(INBOUND_DRAIN);
            inbound.shutdown();
            try {
                if (!inbound.awaitTermination(INBOUND_DRAIN.toMillis(), TimeUnit.MILLISECONDS)) {
                    inbound.shutdownNow();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                inbound.shutdownNow();
            }
        }
    }

    private GetUpdates getUpdates(Integer lastReceived) {
        return GetUpdates.builder()
                .offset(lastReceived + 1)
                .limit(100)
                .timeout((int) settings.pollTimeout().toSeconds())
                .allowedUpdates(List.of("message"))
                .build();
    }

    private static OkHttpClient httpClient(String threadPrefix, Duration readTimeout, Interceptor... interceptors) {
        Dispatcher dispatcher = new Dispatcher(Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name(threadPrefix, 0).factory()));
        dispatcher.setMaxRequests(128);
        dispatcher.setMaxRequestsPerHost(64);
        OkHttpClient.Builder builder = new OkHttpClient.Builder()
                .dispatcher(dispatcher)
                .connectTimeout(10, TimeUnit.SECONDS)
                .writeTimeout(30, TimeUnit.SECONDS)
                .readTimeout(readTimeout);
        for (Interceptor interceptor : interceptors) {
            builder.addInterceptor(interceptor);
        }
        return builder.build();
    }

    /**
     * One long-polling session and what only it uses. {@link #stopReceiving} ends the polling and
     * nothing else; {@link #close} (the channel's {@link #stop}) releases the rest. Concurrency:
     * {@code stopping} makes the stop happen once, whichever thread asks first; {@code receiving}
     * turns false once it is complete (nothing is fetched after that).
     */
    private static final class Polling {
        final PollingBackOff backOff;
        private final OkHttpClient http;
        private final PollGate gate;
        private final ScheduledExecutorService poller;
        private final ExecutorService inbound;
        private final TelegramBotsLongPollingApplication app;
        private final AtomicBoolean stopping = new AtomicBoolean();
        private volatile boolean receiving = true;

        private Polling(PollingBackOff backOff, OkHttpClient http, PollGate gate, ScheduledExecutorService poller,
                        ExecutorService inbound, TelegramBotsLongPollingApplication app) {
            this.backOff = backOff;
            this.http = http;
            this.gate = gate;
            this.poller = poller;
            this.inbound = inbound;
            this.app = app;
        }

        static Polling start(TelegramChannel channel, BotIdentity bot, InboundSink sink) throws TelegramApiException {
            TelegramSettings settings = channel.settings;
            PollingBackOff backOff = new PollingBackOff(
                    Backoff.exponential(settings.pollBackoffInitial(), settings.pollBackoffMax()));
            // the server holds getUpdates for pollTimeout; allow for a slow network on top. One update
            // the SDK cannot read must not fail its whole batch, forever: the interceptor steps over it.
            OkHttpClient network = httpClient("telegram-poll-", settings.pollTimeout().plusSeconds(15),
                    new PoisonUpdateInterceptor(channel.mapper));
            // what the SDK polls through: the gate, which sends each getUpdates over the network client
            PollGate gate = new PollGate(network);
            OkHttpClient.Builder gated = network.newBuilder();
            gated.interceptors().clear();
            OkHttpClient http = gated.addInterceptor(gate).build();
            ScheduledExecutorService poller = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "telegram-poller");
                thread.setDaemon(true);
                return thread;
            });
            ExecutorService inbound = Executors.newThreadPerTaskExecutor(
                    Thread.ofVirtual().name("telegram-inbound-", 0).factory());
            UpdateHandler handler = channel.handler(bot, sink, inbound);
            TelegramBotsLongPollingApplication app = new TelegramBotsLongPollingApplication(
                    () -> channel.mapper, () -> http, () -> poller, () -> backOff);
            Polling polling = new Polling(backOff, http, gate, poller, inbound, app);
            try {
                app.registerBot(settings.token().value(), settings::telegramUrl, channel::getUpdates, handler);
            } catch (TelegramApiException | RuntimeException e) {
                polling.close();
                throw new TelegramApiException("telegram: could not start long polling at " + settings.apiUrl()
                        + " (" + channel.describe(e) + ")");
            }
            return polling;
        }

        boolean receiving() {
            return receiving;
        }

        /**
         * Ends polling so that the server keeps every update not handed over: the SDK schedules no
         * next poll, the poll the server holds open ends empty and no later one reaches it (the
         * {@link PollGate}), and a batch being handed over right now is waited for (bounded), so
         * it has reached the gateway when this returns. Its offset is never confirmed: Telegram
         * delivers it again at the next start, and the gateway's journal knows it.
         */
        void stopReceiving() {
            if (!stopping.compareAndSet(false, true)) {
                return;
            }
            backOff.closing();
            try {
                app.close();                  // the SDK's session: no next poll is scheduled
            } catch (Exception e) {
                log.debug("telegram: closing the polling session: {}", e.toString());
            }
            gate.close();                     // the getUpdates held open by the server ends now, empty
            poller.shutdown();                // the poll under way (a batch being handed over) finishes
            try {
                if (!poller.awaitTermination(INBOUND_DRAIN.toMillis(), TimeUnit.MILLISECONDS)) {
                    log.warn("telegram: a batch was still being handed to the gateway after {} ms; polling stops"
                            + " regardless (its updates were not confirmed and come again at the next start)",
                            INBOUND_DRAIN.toMillis());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            receiving = false;
        }

        void close() {
            stopReceiving();
            http.dispatcher().cancelAll();    // nothing should be left; a stuck hand-over's calls, if any
            poller.shutdownNow();
            inbound.shutdown();               // messages already taken still reach the gateway
            try {
                if (!inbound.awaitTermination(INBOUND_DRAIN.toMillis(), TimeUnit.MILLISECONDS)) {
                    log.warn("telegram: inbound hand-over still busy after {} ms; stopping it", INBOUND_DRAIN.toMillis());
                    inbound.shutdownNow();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                inbound.shutdownNow();
            }
            http.dispatcher().executorService().shutdown();
            http.connectionPool().evictAll();
        }
    }
}
