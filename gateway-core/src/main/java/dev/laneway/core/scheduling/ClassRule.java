package dev.laneway.core.scheduling;

import dev.laneway.core.InboundMessage;
import java.util.Objects;
import java.util.Set;

/**
 * One configured classification rule: messages that match every condition given get the class.
 *
 * @param channel  the channel name, or null for any
 * @param chat     the chat id, or null for any
 * @param kinds    the kinds it matches; empty for any
 * @param priority the class it gives
 */
public record ClassRule(String channel, String chat, Set<MessageKind> kinds, PriorityClass priority) {

    public ClassRule {
        kinds = Set.copyOf(kinds);
        Objects.requireNonNull(priority, "priority");
    }

    boolean matches(InboundMessage message, MessageKind kind) {
        return (channel == null || channel.equals(message.channel()))
                && (chat == null || chat.equals(message.chatId()))
                && (kinds.isEmpty() || kinds.contains(kind));
    }
}
