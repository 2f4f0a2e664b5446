package dev.laneway.bench;

import dev.laneway.core.Route;
import dev.laneway.core.channel.ChannelAdapter;
import dev.laneway.core.channel.ChannelCapabilities;
import dev.laneway.core.channel.InboundSink;
import java.time.Duration;

/**
 * A channel that sends nothing anywhere. With a typing refresh it has a typing indicator, as
 * Telegram (refreshed every 5 s), Discord and Slack do; without one it has none.
 */
final class NoopChannel implements ChannelAdapter {

    static final Duration TELEGRAM_TYPING_REFRESH = Duration.ofSeconds(5);

    private final ChannelCapabilities capabilities;

    /** @param typingRefresh how often typing must be re-sent, or null for no typing indicator */
    NoopChannel(Duration typingRefresh) {
        this.capabilities = typingRefresh != null
                ? new ChannelCapabilities(4096, true, typingRefresh, false)
                : new ChannelCapabilities(4096, false, null, false);
    }

    @Override
    public String name() {
        return BenchSessions.CHANNEL;
    }

    @Override
    public ChannelCapabilities capabilities() {
        return capabilities;
    }

    @Override
    public void start(InboundSink sink) {
    }

    @Override
    public void send(Route route, String text) {
    }

    @Override
    public void stop() {
    }
}
