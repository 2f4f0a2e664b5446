package dev.laneway.core.agent;

import java.util.Objects;

/**
 * A user message injected into a running conversation.
 *
 * @param id         the engine's id of the inbound message (to match unseen steers)
 * @param text       the text to append as a user message
 * @param senderName the sender's display name
 */
public record SteerMessage(long id, String text, String senderName) {

    public SteerMessage {
        Objects.requireNonNull(text, "text");
    }
}
