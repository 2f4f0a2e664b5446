package dev.laneway.core.engine;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.Route;
import java.time.Instant;

/**
 * What makes a scheduled job's prompt different on the way in (docs/behaviour.md §12): the message
 * it becomes, and the settings it runs with. It is trusted configuration, not a user's message, so
 * {@link Reception} lets it past the access policy and never reads it as a command; and it always
 * runs as a turn of its own: followup, whatever the session's mode (never steered into a user's run,
 * never batched, never interrupting), through the session lane like any message. Stateless.
 */
final class ScheduledPrompts {

    /** The prefix of a scheduled prompt's sender id: {@code schedule:<jobId>}. */
    static final String SENDER_PREFIX = "schedule:";

    private ScheduledPrompts() {
    }

    /**
     * The message a fire of job {@code jobId} becomes: posted in {@code target}'s chat (and thread) as a
     * group message, from sender {@code schedule:<jobId>} named {@code jobId}, without a platform
     * message id (so it is never deduplicated, and its answer is posted in the chat, not as a reply).
     */
    static InboundMessage message(String jobId, Route target, String space, String prompt, Instant now) {
        return InboundMessage.builder(target.channel())
                .account(target.account())
                .chatId(target.chatId())
                .threadId(target.threadId())
                .senderId(SENDER_PREFIX + jobId)
                .senderName(jobId)
                .text(prompt)
                .receivedAt(now)
                .direct(false)
                .origin(InboundMessage.Origin.SCHEDULE)
                .spaceId(space)
                .build();
    }

    static boolean is(InboundMessage message) {
        return message.origin() == InboundMessage.Origin.SCHEDULE;
    }

    /** The job id of a scheduled prompt, or null for any other message. */
    static String jobId(InboundMessage message) {
        return is(message) && message.senderId().startsWith(SENDER_PREFIX)
                ? message.senderId().substring(SENDER_PREFIX.length()) : null;
    }

    /** The settings a scheduled prompt runs with: the session's, in followup mode. */
    static QueueSettings settings(QueueSettings resolved) {
        return resolved.mode() == QueueMode.FOLLOWUP ? resolved
                : new QueueSettings(QueueMode.FOLLOWUP, resolved.debounce(), resolved.cap(), resolved.drop());
    }
}
