package dev.laneway.channels.telegram;

import dev.laneway.commands.ChatCommands;
import dev.laneway.config.Secret;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.agent.Agent;
import dev.laneway.core.engine.AccessPolicy;
import dev.laneway.core.engine.Gateway;
import dev.laneway.core.engine.GatewaySettings;
import dev.laneway.core.store.InMemoryJournal;
import dev.laneway.core.testing.Await;
import dev.laneway.core.testing.ManualTime;
import dev.laneway.core.testing.RecordingListener;
import dev.laneway.core.testing.ScriptedAgent;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;

/**
 * The whole path as production wires it: the fake Bot API server, the real telegrambots client in a
 * {@link TelegramChannel}, and a real {@link Gateway} (virtual threads, the real chat commands)
 * with a test agent. Gateway and channel share one {@link ManualTime#running() running}
 * {@link ManualTime}: a 100 ms debounce simply passes, while a test skips a {@code retry_after}
 * with {@code time.advance}; its pending count tells when no timer is left, and
 * {@link #awaitQuiet} waits for the events after which nothing more can happen.
 */
final class Rig implements AutoCloseable {

    final FakeBotApi api;
    final ManualTime time = ManualTime.running();
    final Agent agent;
    final RecordingListener dispositions = new RecordingListener();
    /** Messages the gateway's outbox sent ({@code GatewayObserver.sent}), by channel. */
    final java.util.List<String> outboxSends = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Rate limits the channel reported to the gateway ({@code GatewayObserver.rateLimited}), by channel. */
    final java.util.List<String> rateLimits = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Replies the outbox gave up on ({@code GatewayObserver.sendFailed}), by channel. */
    final java.util.List<String> failedSends = new java.util.concurrent.CopyOnWriteArrayList<>();
    final TelegramChannel channel;
    final Gateway gateway;
    /** What the gateway journals: a message stays pending until its answer went out. */
    final InMemoryJournal journal;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    /** Closed by a test to hold every journal append (the gateway's accept waits for it) until it opens again. */
    final GatedJournal.Gate appendGate = new GatedJournal.Gate();

    private final boolean ownsApi;

    private Rig(Builder b) throws IOException {
        this.ownsApi = b.api == null;
        this.api = ownsApi ? FakeBotApi.start() : b.api;
        this.journal = b.journal != null ? b.journal : new InMemoryJournal();
        this.agent = b.agent;
        TelegramSettings settings = b.settings.apply(TelegramSettings.of(new Secret(FakeBotApi.TOKEN), api.url())
                .withPollTimeout(Duration.ofSeconds(1))
                .withPollBackoff(Duration.ofMillis(50), Duration.ofMillis(400))
                .withDrafts(false)); // send, then edit, unless a test turns drafts on (DraftStreamingTest)
        this.channel = new TelegramChannel(settings, time, b.webhook,
                b.seen != null ? b.seen : dev.laneway.core.channel.SeenIds.Source.local(time),
                b.fleet == null ? null : b.fleet.apply(time));
        GatewaySettings.Builder gatewaySettings = GatewaySettings.builder()
                .queueDefaults(new QueueSettings(QueueSettings.DEFAULTS.mode(), Duration.ofMillis(100),
                        QueueSettings.DEFAULTS.cap(), QueueSettings.DEFAULTS.drop()));
        this.gateway = Gateway.builder()
                .settings(b.gateway.apply(gatewaySettings).build())
                .clock(time)
                .scheduler(time)
                .executor(executor)
                .agent(agent)
                .commands(new ChatCommands())
                .access(b.access)
                .listener(dispositions)
                .journal(new GatedJournal(journal, appendGate))
                .observer(new dev.laneway.core.engine.GatewayObserver() {
                    @Override
                    public void sent(String name) {
                        outboxSends.add(name);
                    }

                    @Override
                    public void rateLimited(String name) {
                        rateLimits.add(name);
                    }

                    @Override
                    public void sendFailed(String name) {
                        failedSends.add(name);
                    }
                })
                .channel(channel)
                .build();
    }

    static Builder with() {
        return new Builder();
    }

    /** A started rig with a scripted agent and default settings. */
    static Rig start() throws IOException {
        return with().start();
    }

    ScriptedAgent scripted() {
        return (ScriptedAgent) agent;
    }

    /** The {@code index}-th run of the scripted agent, once it has started. */
    ScriptedAgent.ScriptedRun run(int index) {
        return Await.value("run #" + index, () -> scripted().runs().size() > index ? scripted().run(index) : null);
    }

    /**
     * Waits until what the test pushed so far is done with: the bot has polled past every update
     * (its handler took or skipped each) and the gateway has no session with work left. From then on
     * no message reaches the gateway and no run starts until the test acts, so a check that something
     * did not happen is final (only a send already handed to another thread may still land).
     */
    void awaitQuiet() throws InterruptedException {
        api.awaitCaughtUp();
        if (!gateway.awaitIdle(Await.DEFAULT)) {
            throw new AssertionError("the gateway still had work after " + Await.DEFAULT.toMillis() + " ms: "
                    + gateway.sessionStates());
        }
    }

    @Override
    public void close() {
        try {
            gateway.shutdown(Duration.ofSeconds(2));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            time.close();
            executor.shutdownNow();
            if (ownsApi) {
                api.close();
            }
        }
    }

    /** Options; every one has a default. */
    static final class Builder {
        private UnaryOperator<TelegramSettings> settings = s -> s;
        private UnaryOperator<GatewaySettings.Builder> gateway = g -> g;
        private AccessPolicy access = AccessPolicy.ALLOW_ALL;
        private Agent agent = new ScriptedAgent();
        private FakeBotApi api;
        private InMemoryJournal journal;
        private dev.laneway.config.TelegramWebhook webhook;
        private dev.laneway.core.channel.SeenIds.Source seen;
        private java.util.function.Function<ManualTime, TelegramChannel.PollerFleet> fleet;

        Builder settings(UnaryOperator<TelegramSettings> value) { settings = value; return this; }
        Builder gateway(UnaryOperator<GatewaySettings.Builder> value) { gateway = value; return this; }
        Builder access(AccessPolicy value) { access = value; return this; }
        Builder agent(Agent value) { agent = value; return this; }
        /** A server of the test's own, which outlives the rig (a restart: a second rig on the same server). */
        Builder api(FakeBotApi value) { api = value; return this; }
        /** Where the gateway records accepted messages (a restart: a second rig on the same journal). */
        Builder journal(InMemoryJournal value) { journal = value; return this; }
        /** Webhook mode instead of polling. */
        Builder webhook(dev.laneway.config.TelegramWebhook value) { webhook = value; return this; }
        /** Where update ids already taken are kept (shared by two rigs: two instances of a fleet). */
        Builder seen(dev.laneway.core.channel.SeenIds.Source value) { seen = value; return this; }
        /** Polling only while elected by a fleet (given the rig's time, for the election's checks). */
        Builder fleet(java.util.function.Function<ManualTime, TelegramChannel.PollerFleet> value) { fleet = value; return this; }

        Rig start() throws IOException {
            Rig rig = new Rig(this);
            rig.gateway.start();
            if (!rig.channel.connected()) {
                rig.close();
                throw new IllegalStateException("the telegram channel did not start; see the log");
            }
            return rig;
        }
    }
}
