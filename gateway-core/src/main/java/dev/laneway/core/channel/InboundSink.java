package dev.laneway.core.channel;

import dev.laneway.core.InboundMessage;

/** Where a channel hands inbound messages. Returns at once: it never waits for a run. */
@FunctionalInterface
public interface InboundSink {

    void accept(InboundMessage message);

    /** The channel was told by its platform to slow down (HTTP 429); counted for operators. */
    default void rateLimited(String channel) {
    }
}
