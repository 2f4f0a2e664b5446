package dev.laneway.channels.slack;

import dev.laneway.config.ChannelsConfig;
import dev.laneway.config.Secret;
import dev.laneway.core.DropPolicy;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.channel.InboundSink;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.engine.Gateway;
import dev.laneway.core.engine.GatewaySettings;
import dev.laneway.core.store.InMemoryJournal;
import dev.laneway.core.store.MessageJournal;
import dev.laneway.core.testing.Await;
import dev.laneway.core.testing.ManualTime;
import dev.laneway.core.testing.ScriptedAgent;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * One test's world: the fake Slack (Web API + Socket Mode), the real {@link SlackChannel} on the
 * real SDK pointed at it, and either a recording sink or a real {@link Gateway} with a
 * {@link ScriptedAgent}. Channel and gateway share one {@link ManualTime#running() running}
 * {@link ManualTime}: short timers simply pass, a test skips a {@code Retry-After} with
 * {@code clock.advance}. Waits are {@link Await}s, never fixed sleeps.
 */
final class SlackRig implements AutoCloseable {

    final FakeSlackApi api;
    final FakeSocketMode socket;
    final ManualTime clock = ManualTime.running();
    final SlackChannel channel;
    final List<InboundMessage> received = new CopyOnWriteArrayList<>();
    /** The channel names the channel reported a 429 for ({@code InboundSink.rateLimited}). */
    final List<String> rateLimits = new CopyOnWriteArrayList<>();
    final ScriptedAgent agent = new ScriptedAgent();
    /** The gateway's journal (gateway rigs): a message stays pending until its answer went out. */
    final InMemoryJournal journal = new InMemoryJournal();
    private ExecutorService executor;
    private Gateway gateway;

    private SlackRig(boolean requireMention, List<String> allowFrom) throws Exception {
        this(requireMention, allowFrom, options -> options);
    }

    private SlackRig(boolean requireMention, List<String> allowFrom,
                     java.util.function.UnaryOperator<SlackOptions> tune) throws Exception {
        this(requireMention, allowFrom, tune, ChannelsConfig.Slack.DEFAULT_STREAMING);
    }

    private SlackRig(boolean requireMention, List<String> allowFrom,
                     java.util.function.UnaryOperator<SlackOptions> tune,
                     dev.laneway.core.channel.Streaming streaming) throws Exception {
        this(requireMention, allowFrom, tune, streaming, ChannelsConfig.DEFAULT_RECEIPTS);
    }

    private SlackRig(boolean requireMention, List<String> allowFrom,
                     java.util.function.UnaryOperator<SlackOptions> tune,
                     dev.laneway.core.channel.Streaming streaming,
                     dev.laneway.core.channel.ReceiptMode receipts) throws Exception {
        api = new FakeSlackApi();
        socket = new FakeSocketMode();
        socket.startAndWait();
        api.socketUrl(socket::nextUrl);
        var config = new ChannelsConfig.Slack(true, new Secret("xoxb-test-bot"), new Secret("xapp-test-app"),
                api.apiUrl(), allowFrom, requireMention, streaming, receipts);
        channel = new SlackChannel(config, tune.apply(SlackOptions.defaults().withClock(clock)
                .withReconnectBackoff(Duration.ofMillis(100), Duration.ofSeconds(2))));
    }

    /** The channel delivering into {@link #received}. */
    static SlackRig recording(boolean requireMention) throws Exception {
        return recording(requireMention, List.of());
    }

    /** The channel delivering into {@link #received}, with {@code channels.slack.allowFrom}. */
    static SlackRig recording(boolean requireMention, List<String> allowFrom) throws Exception {
        SlackRig rig = new SlackRig(requireMention, allowFrom);
        rig.channel.start(rig.sink(rig.received::add));
        rig.awaitConnected();
        return rig;
    }

    /** The channel delivering into {@link #received}, with its options tuned (e.g. a fleet's seen ids). */
    static SlackRig recording(java.util.function.UnaryOperator<SlackOptions> tune) throws Exception {
        SlackRig rig = new SlackRig(true, List.of(), tune);
        rig.channel.start(rig.sink(rig.received::add));
        rig.awaitConnected();
        return rig;
    }

    /** Records each message and rate limit, and hands messages on to {@code next}. */
    private InboundSink sink(InboundSink next) {
        return new InboundSink() {
            @Override
            public void accept(InboundMessage message) {
                next.accept(message);
            }

            @Override
            public void rateLimited(String name) {
                rateLimits.add(name);
                next.rateLimited(name);
            }
        };
    }

    /**
     * The channel wired to a real gateway (collect mode, 200 ms debounce); {@link #received} still
     * records what the channel handed over.
     */
    static SlackRig gateway(boolean requireMention, CommandHandler commands) throws Exception {
        return gateway(requireMention, commands, api -> { });
    }

    /** As {@link #gateway(boolean, CommandHandler)}, with the fake Slack set up by {@code before} before the channel starts. */
    static SlackRig gateway(boolean requireMention, CommandHandler commands,
                            java.util.function.Consumer<FakeSlackApi> before) throws Exception {
        return gateway(new SlackRig(requireMention, List.of()), commands, before, null);
    }

    /** The channel with {@code channels.slack.streaming} as given, wired to a real gateway. */
    static SlackRig gateway(dev.laneway.core.channel.Streaming streaming) throws Exception {
        return gateway(new SlackRig(true, List.of(), options -> options, streaming), CommandHandler.NONE, api -> { },
                null);
    }

    /** The channel with {@code channels.slack.receipts} as given, wired to a real gateway. */
    static SlackRig gateway(dev.laneway.core.channel.ReceiptMode receipts) throws Exception {
        return gateway(new SlackRig(true, List.of(), options -> options, ChannelsConfig.Slack.DEFAULT_STREAMING, receipts),
                CommandHandler.NONE, api -> { }, null);
    }

    /** The channel, with {@code ackDeadline}, wired to a real gateway that records accepted messages in {@code journal} (instead of {@link #journal}). */
    static SlackRig gateway(MessageJournal journal, Duration ackDeadline) throws Exception {
        return gateway(new SlackRig(true, List.of(), options -> options.withAckDeadline(ackDeadline)), CommandHandler.NONE,
                api -> { }, journal);
    }

    private static SlackRig gateway(SlackRig rig, CommandHandler commands, java.util.function.Consumer<FakeSlackApi> before,
                                    MessageJournal journal) throws Exception {
        before.accept(rig.api);
        rig.executor = Executors.newVirtualThreadPerTaskExecutor();
        GatewaySettings settings = GatewaySettings.builder()
                .queueDefaults(new QueueSettings(QueueMode.COLLECT, Duration.ofMillis(200), 20, DropPolicy.SUMMARIZE))
                .build();
        rig.gateway = Gateway.builder().settings(settings).clock(rig.clock).scheduler(rig.clock).executor(rig.executor)
                .journal(journal != null ? journal : rig.journal)
                .agent(rig.agent).commands(commands).channel(rig.channel).build();
        Gateway gateway = rig.gateway;
        rig.channel.start(rig.sink(new InboundSink() {
            @Override
            public void accept(InboundMessage message) {
                rig.received.add(message);
                gateway.accept(message);
            }

            @Override
            public void rateLimited(String name) {
                gateway.rateLimited(name);
            }
        }));
        rig.awaitConnected();
        return rig;
    }

    void deliver(String envelope) {
        socket.deliver(envelope);
    }

    /** Delivers a slash command whose {@code response_url} is the fake's; returns the envelope id. */
    String slash(String command, String text, String user, String channel) {
        String envelope = SlackEvents.newEnvelopeId();
        socket.deliver(SlackEvents.slashCommand(envelope, command, text, user, channel, api.responseUrl(envelope)));
        return envelope;
    }

    Gateway gateway() {
        return gateway;
    }

    /** The agent's run number {@code index}, once it has started. */
    ScriptedAgent.ScriptedRun awaitRun(int index) {
        Await.until("agent run #" + (index + 1) + " to start", () -> agent.runs().size() > index);
        return agent.run(index);
    }

    void awaitConnected() {
        Await.until("the channel to connect", channel::connected);
    }

    @Override
    public void close() throws Exception {
        if (gateway != null) {
            gateway.shutdown(Duration.ZERO);
            executor.shutdownNow();
        } else {
            channel.stop();
        }
        clock.close();
        socket.stop(1000);
        api.close();
    }
}
