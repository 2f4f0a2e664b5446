package dev.laneway.core;

import java.util.Objects;

/**
 * How inbound messages map to session keys (docs/behaviour.md §1).
 *
 * @param dm    {@code per-peer} (one session per DM peer) or {@code main} (all DMs share one)
 * @param group {@code thread}, {@code chat} or {@code sender}
 */
public record SessionScope(DmScope dm, GroupScope group) {

    public static final SessionScope DEFAULTS = new SessionScope(DmScope.PER_PEER, GroupScope.THREAD);

    public SessionScope {
        Objects.requireNonNull(dm, "dm");
        Objects.requireNonNull(group, "group");
    }

    /** DM scope: {@code per-peer} or {@code main}. */
    public enum DmScope { PER_PEER, MAIN }

    /** Group scope: {@code thread}, {@code chat} or {@code sender}. */
    public enum GroupScope { THREAD, CHAT, SENDER }

    /** The one session every DM shares under {@code dmScope: main}, whatever the channel or account. */
    public static final SessionKey MAIN_DM = SessionKey.of("dm:main");

    /**
     * The session key of a message under this scope: {@code <channel>[@<account>]:dm:<sender>} per
     * peer, {@code dm:main} for every DM under {@code main}, and
     * {@code <channel>[@<account>]:group:<chat>[:<thread> | :sender:<sender>]} in groups. Replies do
     * not depend on it: each message keeps its own route.
     */
    public SessionKey keyOf(InboundMessage message) {
        String channel = message.channel();
        String prefix = "default".equals(message.account()) ? channel : channel + "@" + message.account();
        if (message.direct()) {
            return switch (dm) {
                case PER_PEER -> SessionKey.of(prefix + ":dm:" + message.senderId());
                case MAIN -> MAIN_DM;
            };
        }
        String chat = prefix + ":group:" + message.chatId();
        return switch (group) {
            case THREAD -> SessionKey.of(message.threadId() == null ? chat : chat + ":" + message.threadId());
            case CHAT -> SessionKey.of(chat);
            case SENDER -> SessionKey.of(chat + ":sender:" + message.senderId());
        };
    }
}
