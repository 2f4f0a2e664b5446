package dev.laneway.core.jobs;

import dev.laneway.core.Route;
import java.util.Objects;

/**
 * Where a scheduled job's prompt is posted and answered: a chat, and optionally a thread in it, on
 * one configured channel (docs/behaviour.md §12).
 *
 * @param channel  the channel name ({@code telegram}, {@code discord}, {@code slack}, {@code console})
 * @param chatId   the platform's chat id (a Telegram chat, a Discord or Slack channel)
 * @param threadId a thread or forum topic in that chat, or null
 * @param space    the chat's platform space (a Discord guild id, a Slack workspace id), or null: it puts the
 *                 job in that space's tenant and lets space bindings match it (docs/behaviour.md §11.2, §13.1)
 */
public record JobTarget(String channel, String chatId, String threadId, String space) {

    public JobTarget {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(chatId, "chatId");
        if (channel.isBlank() || chatId.isBlank()) {
            throw new IllegalArgumentException("a job target needs a channel and a chat, got " + channel + " / " + chatId);
        }
        threadId = threadId == null || threadId.isBlank() ? null : threadId;
        space = space == null || space.isBlank() ? null : space;
    }

    /** A target without a space (a Telegram chat, or where the space does not matter). */
    public JobTarget(String channel, String chatId, String threadId) {
        this(channel, chatId, threadId, null);
    }

    /** The route the job's answer goes to: the chat (and thread), replying to no message. */
    public Route route() {
        return new Route(channel, "default", chatId, threadId, null);
    }

    /** Whether a message in this conversation (channel, chat, thread) is in the job's target. */
    public boolean targets(Route conversation) {
        return channel.equals(conversation.channel()) && chatId.equals(conversation.chatId())
                && Objects.equals(threadId, conversation.threadId());
    }

    /** {@code telegram chat -100123}, with {@code thread 7} when it has one. */
    @Override
    public String toString() {
        return channel + " chat " + chatId + (threadId == null ? "" : " thread " + threadId);
    }
}
