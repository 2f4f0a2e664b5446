package dev.laneway.channels.discord;

import dev.laneway.config.ChannelsConfig;
import dev.laneway.config.Secret;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.channel.InboundSink;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.engine.AccessPolicy;
import dev.laneway.core.engine.Gateway;
import dev.laneway.core.engine.GatewaySettings;
import dev.laneway.core.store.InMemoryJournal;
import dev.laneway.core.testing.Await;
import dev.laneway.core.testing.RecordingListener;
import dev.laneway.core.testing.ScriptedAgent;
import dev.laneway.core.time.Scheduler;
import dev.laneway.core.time.SystemScheduler;
import java.net.URI;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;
import net.dv8tion.jda.api.utils.data.DataArray;
import net.dv8tion.jda.api.utils.data.DataObject;

/**
 * The real JDA-backed {@link DiscordChannel} wired into a real {@link Gateway} (virtual threads, a
 * scripted agent that holds runs open until the test ends them), talking to a fake Discord
 * (gateway + REST) on 127.0.0.1. Start with {@link #start}; close it at the end of each test.
 */
final class DiscordRig implements AutoCloseable {

    static final String TOKEN = "test-token-not-a-secret";

    final FakeDiscordGateway ws = new FakeDiscordGateway();
    final FakeDiscordRest rest;
    final ScriptedAgent agent = new ScriptedAgent();
    final RecordingListener dispositions = new RecordingListener();
    /** The gateway's journal: a message stays pending until its answer went out. */
    final InMemoryJournal journal = new InMemoryJournal();
    final DiscordChannel channel;
    private final List<InboundMessage> inbound = new CopyOnWriteArrayList<>();
    /** The channel names the channel reported a 429 for ({@code InboundSink.rateLimited}). */
    final List<String> rateLimits = new CopyOnWriteArrayList<>();
    final Gateway gateway;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final SystemScheduler systemScheduler;
    private final UnaryOperator<InboundSink> sinkWrapper;

    private DiscordRig(Options options) throws Exception {
        ws.startAndAwait();
        rest = new FakeDiscordRest();
        ChannelsConfig.Discord config = new ChannelsConfig.Discord(true, new Secret(TOKEN),
                URI.create(rest.baseUrl()), URI.create(ws.url()), options.allowFrom, options.requireMention,
                options.streaming, options.receipts).withShards(options.shards);
        systemScheduler = options.scheduler == null ? new SystemScheduler() : null;
        Scheduler scheduler = options.scheduler == null ? systemScheduler : options.scheduler;
        channel = new DiscordChannel(config, options.clock, scheduler);
        sinkWrapper = options.sinkWrapper;
        gateway = Gateway.builder()
                .settings(options.settings.apply(GatewaySettings.builder()).build())
                .clock(options.clock)
                .scheduler(scheduler)
                .executor(executor)
                .agent(agent)
                .commands(options.commands)
                .access(options.access)
                .listener(dispositions)
                .journal(journal)
                .channel(channel)
                .build();
    }

    static Options options() {
        return new Options();
    }

    static DiscordRig start() throws Exception {
        return options().start();
    }

    /**
     * Starts the channel with a sink that records each inbound message and hands it to the gateway
     * (what {@code Gateway.start} does, plus the recording), then waits until JDA is ready.
     */
    private DiscordRig connect() {
        channel.start(sinkWrapper.apply(new InboundSink() {
            @Override
            public void accept(InboundMessage message) {
                inbound.add(message);
                gateway.accept(message);
            }

            @Override
            public void rateLimited(String name) {
                rateLimits.add(name);
                gateway.rateLimited(name);
            }
        }));
        Await.until("JDA to connect to the fake gateway", channel::connected);
        Await.until("slash commands to be registered",
                () -> !rest.requests(r -> r.is("PUT", "applications/" + DiscordJson.APP_ID + "/commands")).isEmpty());
        return this;
    }

    /** A DM from {@code authorId} to the bot. */
    void dm(String messageId, String authorId, String text) {
        ws.dispatch("MESSAGE_CREATE", DiscordJson.message(messageId, FakeDiscordRest.dmChannel(authorId), null,
                authorId, text, List.of(), null));
    }

    /** A DM with attachments (JSON objects as Discord sends them: id, filename, size, url, content_type). */
    void dmWithAttachments(String messageId, String authorId, String text, DataArray attachments) {
        ws.dispatch("MESSAGE_CREATE", DiscordJson.message(messageId, FakeDiscordRest.dmChannel(authorId), null,
                authorId, text, List.of(), null).put("attachments", attachments));
    }

    /** A guild message; {@code mentions} are the user ids it mentions. */
    void guildMessage(String messageId, String channelId, String authorId, String text, String... mentions) {
        ws.dispatch("MESSAGE_CREATE", DiscordJson.message(messageId, channelId, DiscordJson.GUILD_ID, authorId,
                text, List.of(mentions), null));
    }

    /** A guild message in the text channel that mentions the roles {@code roleIds}. */
    void guildMessageMentioningRoles(String messageId, String authorId, String text, String... roleIds) {
        ws.dispatch("MESSAGE_CREATE", DiscordJson.message(messageId, DiscordJson.TEXT_CHANNEL, DiscordJson.GUILD_ID,
                authorId, text, List.of(), List.of(roleIds), null));
    }

    /** A guild message that replies to {@code referenced}. */
    void guildReply(String messageId, String authorId, String text, DataObject referenced) {
        ws.dispatch("MESSAGE_CREATE", DiscordJson.message(messageId, DiscordJson.TEXT_CHANNEL, DiscordJson.GUILD_ID,
                authorId, text, List.of(), referenced));
    }

    /** A slash command in a guild channel. */
    void slashCommand(String interactionId, String channelId, String userId, String command, DataArray options) {
        ws.dispatch("INTERACTION_CREATE",
                DiscordJson.guildInteraction(interactionId, channelId, userId, command, options));
    }

    /** The interaction callback (acknowledgement or immediate reply) requests for an interaction. */
    List<FakeDiscordRest.Request> callbacks(String interactionId) {
        return rest.requests(r -> r.is("POST", "interactions/" + interactionId + "/itoken-" + interactionId + "/callback"));
    }

    /** Follow-up messages sent through an interaction. */
    List<FakeDiscordRest.Request> followUps(String interactionId) {
        return rest.requests(r -> r.is("POST", "webhooks/" + DiscordJson.APP_ID + "/itoken-" + interactionId));
    }

    /** Edits of an interaction's original (deferred) reply. */
    List<FakeDiscordRest.Request> originalEdits(String interactionId) {
        return rest.requests(r -> r.is("PATCH", "webhooks/" + DiscordJson.APP_ID + "/itoken-" + interactionId + "/messages/@original"));
    }

    /** Messages the channel handed to the gateway, in arrival order. */
    List<InboundMessage> inbound() {
        return List.copyOf(inbound);
    }

    /** The one inbound message with this platform id (waits for it). */
    InboundMessage inbound(String platformMessageId) {
        Await.until("message " + platformMessageId + " to reach the gateway",
                () -> inbound.stream().anyMatch(m -> platformMessageId.equals(m.platformMessageId())));
        return inbound.stream().filter(m -> platformMessageId.equals(m.platformMessageId())).findFirst().orElseThrow();
    }

    @Override
    public void close() {
        try {
            channel.stop();
        } finally {
            try {
                ws.stop(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            rest.close();
            executor.shutdownNow();
            if (systemScheduler != null) {
                systemScheduler.close();
            }
        }
    }

    /** What a test may change before starting. */
    static final class Options {
        private boolean requireMention = true;
        private UnaryOperator<GatewaySettings.Builder> settings = s -> s;
        private CommandHandler commands = CommandHandler.NONE;
        private AccessPolicy access = AccessPolicy.ALLOW_ALL;
        private List<String> allowFrom = List.of();
        private InstantSource clock = InstantSource.system();
        private Scheduler scheduler;
        private UnaryOperator<InboundSink> sinkWrapper = sink -> sink;
        private dev.laneway.core.channel.Streaming streaming = ChannelsConfig.Discord.DEFAULT_STREAMING;
        private dev.laneway.core.channel.ReceiptMode receipts = ChannelsConfig.DEFAULT_RECEIPTS;
        /** {@code channels.discord.receipts}. */
        Options receipts(dev.laneway.core.channel.ReceiptMode value) { receipts = value; return this; }
        private int shards = ChannelsConfig.Discord.DEFAULT_SHARDS;

        Options requireMention(boolean value) { requireMention = value; return this; }
        /** {@code channels.discord.shards}: alone, the channel connects them all. */
        Options shards(int total) { shards = total; return this; }
        /** {@code channels.discord.streaming} and {@code streamingInterval}. */
        Options streaming(dev.laneway.core.channel.Streaming value) { streaming = value; return this; }
        Options settings(UnaryOperator<GatewaySettings.Builder> value) { settings = value; return this; }
        Options commands(CommandHandler value) { commands = value; return this; }
        /** {@code channels.discord.allowFrom} as the channel sees it. */
        Options allowFrom(String... senderIds) { allowFrom = List.of(senderIds); return this; }
        /** The gateway's own access policy (the app builds it from the same lists; a test may make them differ). */
        Options access(AccessPolicy value) { access = value; return this; }
        Options time(InstantSource clockValue, Scheduler schedulerValue) {
            clock = clockValue;
            scheduler = schedulerValue;
            return this;
        }

        /** Puts a sink of the test's own in front of the recording one. */
        Options sinkWrapper(UnaryOperator<InboundSink> value) { sinkWrapper = value; return this; }

        DiscordRig start() throws Exception {
            return new DiscordRig(this).connect();
        }
    }
}
