package dev.laneway.core.channel;

import dev.laneway.core.InboundMessage;

/** Where a channel hands inbound messages. Returns at once: it never waits for a run. */
@FunctionalInterface
public interface InboundSink {
    void accept(InboundMessage message);
}
