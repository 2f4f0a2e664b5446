package dev.laneway.core.channel;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.Route;

/** Where a channel hands inbound messages. Returns at once: it never waits for a run. */
@FunctionalInterface
public interface InboundSink {

    /**
     * Takes one message. Returns once the gateway is done with it for the platform's purposes:
     * stored durably (accepted, or kept for the next start while shutting down), or answered,
     * refused or ignored. A channel may confirm the message to its platform (Slack's envelope ack,
     * Telegram's next offset) once this returns, never before.
     */
    void accept(InboundMessage message);

    /** The channel was told by its platform to slow down (HTTP 429); counted for operators. */
    default void rateLimited(String channel) {
    }

    /**
     * Sends a notice the channel itself owes a user (e.g. "I can only read text") through the
     * gateway's outbox: in the chat's order with its other replies and paced like them. Returns
     * at once. The gateway implements it; this default (for test sinks) drops the notice.
     */
    default void reply(Route route, String text) {
    }
}
