package dev.laneway.core.store;

import dev.laneway.core.Route;
import java.util.Objects;

/**
 * A message a streamed answer shows on its platform while the answer is being written, as the
 * journal keeps it against the message it answers (docs/behaviour.md §16.3): should the process
 * die before the answer is complete, the restart marks this message {@code ⚠️ Interrupted.} before
 * answering afresh. Only the last message of each reply is kept (earlier ones hold whole chunks).
 *
 * @param seq       the journal entry the answer answers
 * @param route     the chat (and thread) the message is in; its reply-to is not kept
 * @param messageId the platform's id of the message (what {@code ChannelAdapter.edit} takes)
 * @param text      what the message shows of the reply (a tool progress line included)
 */
public record LiveMessage(long seq, Route route, String messageId, String text) {

    public LiveMessage {
        Objects.requireNonNull(route, "route");
        Objects.requireNonNull(messageId, "messageId");
        Objects.requireNonNull(text, "text");
        route = new Route(route.channel(), route.account(), route.chatId(), route.threadId(), null);
    }
}
