package dev.laneway.core.agent;

import java.util.Objects;

/**
 * A user message injected into a running conversation.
 *
 * @param id         the engine's id of the inbound message (to match unseen steers)
 * @param text       the text to append as a user message (with its attachments' markers,
 *                   docs/behaviour.md §15.2)
 * @param senderName the sender's display name
 * @param files      the message's attachments, or null when it has none
 */
public record SteerMessage(long id, String text, String senderName, MessageFiles files) {

    public SteerMessage {
        Objects.requireNonNull(text, "text");
        files = files == null || files.attachments().isEmpty() ? null : files;
    }

    /** A steer without attachments. */
    public SteerMessage(long id, String text, String senderName) {
        this(id, text, senderName, null);
    }
}
