package dev.laneway.core.scheduling;

import dev.laneway.core.InboundMessage;

/**
 * Who a message's run counts against in the fair share (docs/behaviour.md §11.2). With
 * {@link Scope#SPACE} (the default) a group chat's tenant is its platform space (a Discord guild, a
 * Slack workspace) or, where there is none (Telegram), the chat itself; with {@link Scope#CHAT} every
 * group chat is a tenant of its own. A DM's tenant is always its user. Tenant ids read
 * {@code space:discord:<guild>}, {@code chat:telegram:<chat>}, {@code user:slack:<user>}.
 */
public final class Tenants {

    /** What a group chat's tenant is. */
    public enum Scope {
        SPACE, CHAT;

        public String configName() {
            return ConfigNames.of(this);
        }

        public static Scope byConfigName(String name) {
            return ConfigNames.find(values(), name);
        }
    }

    private final Scope scope;

    public Tenants(Scope scope) {
        this.scope = scope;
    }

    /**
     * Whether {@code message} counts against the tenant {@code id}: {@link #tenantOf} would give it
     * that id. Builds no string (a session asks for each run whether its last run's tenant still
     * holds: docs/decisions.md D218).
     */
    public boolean isTenantOf(String id, InboundMessage message) {
        String prefix;
        String tail;
        if (isUser(message)) {
            prefix = "user:";
            tail = message.senderId();
        } else if (scope == Scope.SPACE && message.spaceId() != null) {
            prefix = "space:";
            tail = message.spaceId();
        } else {
            prefix = "chat:";
            tail = message.chatId();
        }
        String channel = message.channel();
        int colon = prefix.length() + channel.length();
        return id.length() == colon + 1 + tail.length() && id.startsWith(prefix) && id.startsWith(channel, prefix.length())
                && id.charAt(colon) == ':' && id.startsWith(tail, colon + 1);
    }

    private static boolean isUser(InboundMessage message) {
        return message.direct() && message.origin() != InboundMessage.Origin.SCHEDULE;
    }

    public String tenantOf(InboundMessage message) {
        if (isUser(message)) {
            return "user:" + message.channel() + ":" + message.senderId();
        }
        if (scope == Scope.SPACE && message.spaceId() != null) {
            return "space:" + message.channel() + ":" + message.spaceId();
        }
        return "chat:" + message.channel() + ":" + message.chatId();
    }
}
