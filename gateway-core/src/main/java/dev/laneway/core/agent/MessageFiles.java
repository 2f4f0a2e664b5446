package dev.laneway.core.agent;

import dev.laneway.core.Attachment;
import java.util.List;
import java.util.Objects;

/**
 * The attachments of one message of a turn, in the order their markers appear in the prompt
 * (docs/behaviour.md §15.2). The per-message size limit counts over one {@code MessageFiles}.
 *
 * @param channel     the channel the message came from: the one that can fetch them
 * @param attachments the message's attachments
 */
public record MessageFiles(String channel, List<Attachment> attachments) {

    public MessageFiles {
        Objects.requireNonNull(channel, "channel");
        attachments = List.copyOf(attachments);
    }
}
