package dev.laneway.core.engine;

import dev.laneway.core.InboundMessage;
import java.util.Map;
import java.util.Set;

/** Whether a sender may talk to the bot at all; refused messages end as {@code DENIED}. */
@FunctionalInterface
public interface AccessPolicy {

    AccessPolicy ALLOW_ALL = message -> true;

    boolean allows(InboundMessage message);

    /** Per-channel allow lists of sender ids; a channel with no list, or an empty one, allows everyone. */
    static AccessPolicy allowFrom(Map<String, Set<String>> byChannel) {
        Map<String, Set<String>> lists = Map.copyOf(byChannel);
        return message -> {
            Set<String> allowed = lists.get(message.channel());
            return allowed == null || allowed.isEmpty() || allowed.contains(message.senderId());
        };
    }
}
