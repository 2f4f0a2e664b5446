package dev.laneway.core.channel;

import java.time.Duration;

/**
 * What a channel can do. The gateway reads it once, when it is built.
 *
 * @param maxTextLength  longest text one message may carry (Telegram 4096, Discord 2000, ...)
 * @param typing         whether the channel shows a typing / progress indicator
 * @param typingRefresh  how often the indicator must be re-sent while a run is pending
 * @param threads        whether the channel has threads
 * @param tracksMessages whether the channel wants the per-message hooks {@link ChannelAdapter#accepted}
 *                       and {@link ChannelAdapter#settled} (Slack's 👀); without it the gateway calls
 *                       neither and spends no outbox work on them
 */
public record ChannelCapabilities(int maxTextLength, boolean typing, Duration typingRefresh, boolean threads,
                                  boolean tracksMessages) {

    public ChannelCapabilities {
        if (maxTextLength < 1) {
            throw new IllegalArgumentException("maxTextLength must be >= 1, got " + maxTextLength);
        }
        if (typing && (typingRefresh == null || typingRefresh.isZero() || typingRefresh.isNegative())) {
            throw new IllegalArgumentException("typingRefresh must be positive when typing is supported");
        }
    }

    /** A channel without the per-message hooks. */
    public ChannelCapabilities(int maxTextLength, boolean typing, Duration typingRefresh, boolean threads) {
        this(maxTextLength, typing, typingRefresh, threads, false);
    }
}
