package dev.laneway.core.engine;

import dev.laneway.core.InboundMessage;
import java.util.Map;
import java.util.Set;

/**
 * Who may change settings (docs/behaviour.md §6.7), also the "sender authority" that keeps collect batches
 * apart: the channel's {@code commands.allowFrom} when set; otherwise anyone in a DM and group
 * admins (as the channel reports them) in groups.
 */
final class Authorization {

    // channel -> sender ids allowed to use commands
    private final Map<String, Set<String>> allowFrom;

    Authorization(Map<String, Set<String>> allowFrom) {
        this.allowFrom = allowFrom;
    }

    boolean trusted(InboundMessage message) {
        Set<String> allowed = allowFrom.get(message.channel());
        if (allowed != null && !allowed.isEmpty()) {
            return allowed.contains(message.senderId());
        }
        return message.direct() || message.senderIsAdmin();
    }
}
