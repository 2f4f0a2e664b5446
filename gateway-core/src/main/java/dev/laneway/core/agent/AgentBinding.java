package dev.laneway.core.agent;

import dev.laneway.core.InboundMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One rule of {@code agents.bindings} (docs/behaviour.md §13.1): the agent that answers messages
 * matching every condition it sets. A condition left null matches anything; a binding with no
 * condition matches every message. The first binding that matches a run's lead message names its
 * agent; {@code agents.defaults.agent} answers when none does.
 *
 * @param channel the channel name ({@code discord}, {@code slack}, ...), or null
 * @param account the channel account ({@code default} for one bot), or null
 * @param space   the platform space: a Discord guild id or a Slack workspace id (the message's
 *                {@code spaceId}), or null
 * @param chat    the chat id, or null
 * @param thread  the thread id, or null
 * @param direct  true: direct messages only; false: group messages only; null: both
 * @param agent   the agent's name in {@code agents.list}
 */
public record AgentBinding(String channel, String account, String space, String chat, String thread, Boolean direct,
                           String agent) {

    public AgentBinding {
        Objects.requireNonNull(agent, "agent");
    }

    /** Whether {@code message} meets every condition this binding sets. */
    public boolean matches(InboundMessage message) {
        return (channel == null || channel.equals(message.channel()))
                && (account == null || account.equals(message.account()))
                && (space == null || space.equals(message.spaceId()))
                && (chat == null || chat.equals(message.chatId()))
                && (thread == null || thread.equals(message.threadId()))
                && (direct == null || direct == message.direct());
    }

    /**
     * Whether this binding, placed before {@code later}, matches every message {@code later} would
     * match, so that {@code later} can never match: every condition this one sets, {@code later} sets
     * to the same value (this one's conditions are a subset of the later one's).
     */
    public boolean shadows(AgentBinding later) {
        return covers(channel, later.channel) && covers(account, later.account) && covers(space, later.space)
                && covers(chat, later.chat) && covers(thread, later.thread) && covers(direct, later.direct);
    }

    private static boolean covers(Object mine, Object theirs) {
        return mine == null || mine.equals(theirs);
    }

    /** The conditions as {@code key=value} words, for logs and messages ({@code any message} when none). */
    public String describe() {
        List<String> words = new ArrayList<>();
        add(words, "channel", channel);
        add(words, "account", account);
        add(words, "space", space);
        add(words, "chat", chat);
        add(words, "thread", thread);
        add(words, "dm", direct);
        return words.isEmpty() ? "any message" : String.join(" ", words);
    }

    private static void add(List<String> words, String key, Object value) {
        if (value != null) {
            words.add(key + "=" + value);
        }
    }
}
