package dev.laneway.channels.discord;

import dev.laneway.config.ChannelsConfig;
import dev.laneway.core.Route;
import dev.laneway.core.channel.ChannelAdapter;
import dev.laneway.core.channel.ChannelCapabilities;
import dev.laneway.core.channel.InboundSink;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;
import net.dv8tion.jda.api.JDA;
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
 * <p>Concurrency: {@code start} and {@code stop} are called once each by the app. The JDA client
 * and its sender are published through volatile fields and read by {@code send}/{@code typing} on
 * the outbox's threads; the volatile {@code stopped} turns sends away before JDA's requester shuts
 * down. Inbound events run on JDA's event thread ({@link DiscordListener}), which never waits for
 * a run. {@link PendingInteractions} guards itself.
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
    private volatile JDA jda;
    private volatile DiscordOutbound outbound;
    private volatile boolean stopped;

    /** The channel for {@code channels.discord}; the app calls {@link #start} later. */
    public static ChannelAdapter create(ChannelsConfig.Discord config) {
        return new DiscordChannel(config, InstantSource.system());
    }

    /**
     * @param clock stamps {@code receivedAt} and expires pending slash-command answers
     * @throws IllegalArgumentException naming the setting when the token or a URL is unusable
     */
    public DiscordChannel(ChannelsConfig.Discord config, InstantSource clock) {
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
        JdaFactory.validate(config);
        this.interactions = new PendingInteractions<>(clock, PendingInteractions.DEFAULT_TTL,
                PendingInteractions.DEFAULT_CAPACITY);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ChannelCapabilities capabilities() {
        return new ChannelCapabilities(DiscordOutbound.MAX_TEXT, true, TYPING_REFRESH, true);
    }

    /** Checks the token (one REST call) and starts connecting; the gateway session comes up in the background. */
    @Override
    public void start(InboundSink sink) {
        if (jda != null) {
            throw new IllegalStateException("discord channel already started");
        }
        DiscordListener listener = new DiscordListener(Objects.requireNonNull(sink, "sink"),
                new InboundConverter(config.guildsRequireMention(), clock), interactions);
        JDA client = JdaFactory.build(config, listener);
        outbound = new DiscordOutbound(client, interactions, SEND_TIMEOUT);
        jda = client;
    }

    @Override
    public void send(Route route, String text) {
        outbound().send(route, text);
    }

    @Override
    public void typing(Route route) {
        outbound().typing(route);
    }

    @Override
    public boolean connected() {
        JDA client = jda;
        return client != null && client.getStatus() == JDA.Status.CONNECTED;
    }

    @Override
    public void stop() {
        stopped = true;
        JDA client = jda;
        if (client == null) {
            return;
        }
        client.shutdown();
        try {
            if (!client.awaitShutdown(STOP_GRACE)) {
                log.warn("discord: client did not stop within {} ms; forcing it", STOP_GRACE.toMillis());
                client.shutdownNow();
            }
        } catch (InterruptedException e) {
            client.shutdownNow();
            Thread.currentThread().interrupt();
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

    @Override
    public String toString() {
        return "DiscordChannel[api=" + config.apiUrl() + ", gateway=" + config.gatewayUrl() + "]";
    }
}
