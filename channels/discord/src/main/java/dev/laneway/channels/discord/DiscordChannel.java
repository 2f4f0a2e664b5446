package dev.laneway.channels.discord;

import dev.laneway.core.channel.Receipt;
import dev.laneway.core.channel.ReceiptMode;
import dev.laneway.core.Attachment;
import dev.laneway.core.channel.FileLocation;
import java.net.URI;
import java.util.Map;
import dev.laneway.config.ChannelsConfig;
import dev.laneway.core.Route;
import dev.laneway.core.channel.ChannelAdapter;
import dev.laneway.core.channel.ChannelCapabilities;
import dev.laneway.core.channel.InboundSink;
import dev.laneway.core.channel.Redactor;
import dev.laneway.core.channel.SendFailure;
import dev.laneway.core.channel.Streaming;
import dev.laneway.core.time.Scheduler;
import dev.laneway.core.time.SystemScheduler;
import java.time.Duration;
import java.time.InstantSource;
import dev.laneway.core.SessionKey;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executor;
import dev.laneway.core.fleet.IngressElection;
import dev.laneway.core.fleet.SessionLeases;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import net.dv8tion.jda.api.interactions.InteractionHook;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Laneway's Discord channel, on JDA: DMs, guild text channels and threads, native slash commands
 * ({@code /queue}, {@code /status}, {@code /stop}, {@code /new}) next to the same commands typed as
 * text, replies that reference the message they answer and can ping nobody else, and typing
 * refreshed every 8 s. Reconnects and resumes are JDA's; a message Discord delivers twice carries
 * the same platform message id, which the gateway dedupes.
 *
 * <p>Shards ({@code channels.discord.shards}, docs/behaviour.md §17, "Ingress"): alone the channel
 * connects every shard of the bot ({@link DiscordShards}); in a fleet each shard is connected by
 * the instance holding its lease ({@link ShardElection}), and every instance sends wherever its
 * sessions answer, to channels of shards held elsewhere too (through REST by channel id, D222).
 *
 * <p>Concurrency: {@code start} and {@code stop} are called once each by the app. The shards and
 * the sender are published through volatile fields and read by {@code send}/{@code typing} on
 * the outbox's threads; the volatile {@code stopped} turns sends away before JDA's requester shuts
 * down. Inbound events run on JDA's event thread ({@link DiscordListener}), which never waits for
 * a run. {@link PendingInteractions} guards itself; the {@link InteractionFinisher}'s deadline
 * tasks run on the scheduler's thread and only queue a REST call. Every slash command ends in
 * exactly one answer: see {@link SlashCommandIntake}.
 */
public final class DiscordChannel implements ChannelAdapter {

    public static final String NAME = "discord";
    static final Duration TYPING_REFRESH = Duration.ofSeconds(8);
    static final Duration SEND_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);
    private static final Logger log = LoggerFactory.getLogger(DiscordChannel.class);

    private final ChannelsConfig.Discord config;
    private final InstantSource clock;
    private final PendingInteractions<InteractionHook> interactions;
    private final InteractionFinisher<InteractionHook> finisher;
    private final Redactor redactor;
    private final AutoCloseable ownedScheduler; // the one create() made, closed by stop(); null when injected
    private final ShardFleet fleet;             // null: this instance connects every shard
    private volatile DiscordShards shards;
    private volatile ShardElection election;    // in a fleet only
    private volatile DiscordOutbound outbound;
    private volatile boolean stopped;

    /**
     * The names of the fleet's shard leases for a bot, shard 0 first (for {@code laneway fleet} and
     * {@code /status}); only a hash of the token is in them (docs/behaviour.md §17, "Ingress").
     */
    public static List<String> shardLeases(String token, int total) {
        return ShardElection.keysFor(token, total).stream().map(SessionKey::value).toList();
    }

    /**
     * The channel for {@code channels.discord}, on the system clock and a timer thread of its own
     * (closed by {@link #stop}); the app calls {@link #start} later.
     */
    public static ChannelAdapter create(ChannelsConfig.Discord config) {
        return create(config, null);
    }

    /**
     * As {@link #create(ChannelsConfig.Discord)}, in a fleet when {@code fleet} is not null: the
     * shards are shared out among its instances (docs/behaviour.md §17, "Ingress").
     */
    public static ChannelAdapter create(ChannelsConfig.Discord config, ShardFleet fleet) {
        JdaFactory.validate(config);
        SystemScheduler timer = new SystemScheduler();
        return new DiscordChannel(config, InstantSource.system(), timer, timer, fleet);
    }

    /**
     * A fleet's shard assignment: its session leases (each shard's lease is one of them), what a
     * check reads of the fleet (live instances, who holds a lease: round trips to Redis), the timer
     * and executor its checks run on, and how often an instance checks.
     */
    public record ShardFleet(SessionLeases leases, IngressElection.Standing standing, Scheduler timer,
                             Executor executor, Duration checkEvery) {
        public ShardFleet {
            Objects.requireNonNull(leases, "leases");
            Objects.requireNonNull(standing, "standing");
            Objects.requireNonNull(timer, "timer");
            Objects.requireNonNull(executor, "executor");
            Objects.requireNonNull(checkEvery, "checkEvery");
        }
    }

    /**
     * @param clock     stamps {@code receivedAt} and expires pending slash-command answers
     * @param scheduler closes slash commands that got no answer ({@link InteractionFinisher#ANSWER_DEADLINE})
     * @throws IllegalArgumentException naming the setting when the token or a URL is unusable
     */
    public DiscordChannel(ChannelsConfig.Discord config, InstantSource clock, Scheduler scheduler) {
        this(config, clock, scheduler, null, null);
    }

    /** In a fleet ({@code fleet} not null): the shards this instance connects are elected. */
    public DiscordChannel(ChannelsConfig.Discord config, InstantSource clock, Scheduler scheduler, ShardFleet fleet) {
        this(config, clock, scheduler, null, fleet);
    }

    private DiscordChannel(ChannelsConfig.Discord config, InstantSource clock, Scheduler scheduler,
                           AutoCloseable ownedScheduler, ShardFleet fleet) {
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(scheduler, "scheduler");
        JdaFactory.validate(config);
        this.redactor = Redactor.of(config.token().value());
        this.interactions = new PendingInteractions<>(clock, PendingInteractions.DEFAULT_TTL,
                PendingInteractions.DEFAULT_CAPACITY);
        this.finisher = new InteractionFinisher<>(interactions, scheduler, InteractionFinisher.ANSWER_DEADLINE,
                (hook, notice) -> DiscordOutbound.closeInteraction(hook, notice, redactor));
        this.ownedScheduler = ownedScheduler;
        this.fleet = fleet;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ChannelCapabilities capabilities() {
        return new ChannelCapabilities(DiscordOutbound.MAX_TEXT, true, TYPING_REFRESH, true);
    }

    /**
     * An attachment's CDN URL (docs/behaviour.md §15.1): signed by Discord, valid for about a day, fetched
     * without a token, so a model provider may fetch it itself ({@code shareable}).
     */
    @Override
    public FileLocation locate(Attachment attachment) {
        if (!attachment.fetchable()) {
            throw new IllegalArgumentException("Discord gave no URL for this file");
        }
        try {
            return new FileLocation(URI.create(attachment.ref()), Map.of(), true);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Discord gave an unreadable URL for this file");
        }
    }

    /**
     * Checks the token (one REST call per client) and starts connecting: every shard alone, in a
     * fleet the shards this instance is elected for (the others stand by); the gateway sessions come
     * up in the background.
     */
    @Override
    public void start(InboundSink sink) {
        if (shards != null) {
            throw new IllegalStateException("discord channel already started");
        }
        Objects.requireNonNull(sink, "sink");
        InboundConverter converter = new InboundConverter(config.guildsRequireMention(), clock);
        SlashCommandIntake slashCommands = new SlashCommandIntake(sink, converter, Set.copyOf(config.allowFrom()),
                interactions, finisher, redactor);
        Runnable rateLimited = () -> sink.rateLimited(NAME);
        DiscordShards connections = DiscordShards.of(config,
                new DiscordListener(sink, converter, slashCommands, redactor), rateLimited, STOP_GRACE);
        if (fleet == null) {
            for (int shard = 0; shard < connections.total(); shard++) {
                connections.open(shard);
            }
        } else {
            connections.startRestOnly(sessions -> JdaFactory.restOnly(config, rateLimited, sessions));
        }
        outbound = new DiscordOutbound(connections, interactions, finisher, SEND_TIMEOUT, clock, redactor);
        shards = connections;
        if (fleet != null) {
            ShardElection elect = new ShardElection(fleet, config.token().value(), connections);
            election = elect;
            elect.start();
            log.info("discord: the fleet's instances share the bot's {} shard(s) (leases {} ...); this one connects {}",
                    connections.total(), elect.keys().get(0).value(), elect.heldHere().isEmpty()
                            ? "none for now, checking every " + fleet.checkEvery().toMillis() + " ms"
                            : "shard(s) " + elect.heldHere());
        }
    }

    @Override
    public void send(Route route, String text) throws SendFailure {
        outbound().send(route, text);
    }

    @Override
    public void typing(Route route) throws SendFailure {
        outbound().typing(route);
    }

    /**
     * Streams answers as {@code channels.discord.streaming} says, by send then edit (docs/behaviour.md
     * §16); not the answer to a slash command, which goes through its interaction.
     */
    @Override
    public Streaming streaming(Route route) {
        return Addresses.interactionId(route.replyToMessageId()).isPresent() ? Streaming.OFF : config.streaming();
    }

    @Override
    public String post(Route route, String text) throws SendFailure {
        return outbound().post(route, text);
    }

    @Override
    public void edit(Route route, String messageId, String text) throws SendFailure {
        outbound().edit(route, messageId, text);
    }

    /** {@code channels.discord.receipts} (docs/behaviour.md §16.5). */
    @Override
    public ReceiptMode receipts() {
        return config.receipts();
    }

    /** A receipt as the bot's reaction on the message (the one it showed removed, the new one added). */
    @Override
    public void react(Route route, Receipt shown, Receipt replaced) throws SendFailure {
        outbound().react(route, shown, replaced);
    }

    /** Every shard connected here is connected (a fleet instance that holds none stands by, and counts as connected). */
    @Override
    public boolean connected() {
        DiscordShards current = shards;
        return current != null && (election != null || !current.held().isEmpty()) && current.connected();
    }

    /**
     * In a fleet: disconnects the shards held here and hands their leases over at once (SIGTERM), so
     * other instances connect them at their next check; slash commands still waiting here are closed
     * first (their hooks go with the shard; L55). Sends go on, by REST, until {@link #stop}. Alone:
     * nothing (the shards stay up to send the last answers and notices).
     */
    @Override
    public void stopReceiving() {
        ShardElection elect = election;
        if (elect != null) {
            closeUnanswered();
            elect.stop();
        }
    }

    /**
     * Closes slash commands still waiting for an answer (none will come: commands are not kept
     * across a restart), then lets JDA send what is queued and disconnect; idempotent.
     */
    @Override
    public void stop() {
        stopped = true;
        try {
            shutdownClients();
        } finally {
            closeOwnedScheduler();
        }
    }

    private void shutdownClients() {
        DiscordShards current = shards;
        if (current == null) {
            return;
        }
        ShardElection elect = election;
        if (elect != null) {
            elect.stop();
        }
        closeUnanswered();
        current.closeAll();
    }

    /** The shards connected (or connecting) here, for tests and status. */
    public List<Integer> shardsHere() {
        DiscordShards current = shards;
        return current == null ? List.of() : current.held();
    }

    /** Waits (at most {@code STOP_GRACE}) for the notices, so JDA does not shut down under them. */
    private void closeUnanswered() {
        try {
            int closed = finisher.finishAllAwaiting(SlashNotices.SHUTTING_DOWN)
                    .get(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            if (closed > 0) {
                log.info("discord: closed {} unanswered slash command(s) before stopping", closed);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.warn("discord: unanswered slash commands could not all be closed before stopping: {}",
                    redactor.describe(e));
        }
    }

    private void closeOwnedScheduler() {
        if (ownedScheduler == null) {
            return;
        }
        try {
            ownedScheduler.close();
        } catch (Exception e) {
            log.warn("discord: timer did not close cleanly: {}", e.toString());
        }
    }

    private DiscordOutbound outbound() {
        if (stopped) {
            throw new IllegalStateException("discord channel is stopped");
        }
        DiscordOutbound current = outbound;
        if (current == null) {
            throw new IllegalStateException("discord channel is not started");
        }
        return current;
    }

    /** Where a slash command's answer stands, while the channel still tracks it (for tests). */
    java.util.Optional<PendingInteractions.State> interactionState(String interactionId) {
        return interactions.get(interactionId).map(PendingInteractions.Pending::state);
    }

    @Override
    public String toString() {
        return "DiscordChannel[api=" + config.apiUrl() + ", gateway=" + config.gatewayUrl() + "]";
    }
}
