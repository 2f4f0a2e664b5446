package dev.laneway.core;

import java.util.Objects;

/**
 * Where a reply goes: channel, account, chat, thread (nullable) and the platform message to reply
 * to (nullable).
 */
public record Route(String channel, String account, String chatId, String threadId, String replyToMessageId) {

    public Route {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(chatId, "chatId");
    }

    /** The same chat and thread, replying to another message. */
    public Route replyingTo(String messageId) {
        return new Route(channel, account, chatId, threadId, messageId);
    }

    /** True when both routes address the same channel, account, chat and thread. */
    public boolean sameConversation(Route other) {
        return channel.equals(other.channel) && account.equals(other.account)
                && chatId.equals(other.chatId) && Objects.equals(threadId, other.threadId);
    }

    /** A key naming the chat (channel, account, chat id) for per-chat sequencing of sends. */
    public String chatKey() {
        return channel + '\u0000' + account + '\u0000' + chatId;
    }
}
