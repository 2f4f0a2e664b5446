package dev.laneway.core;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One normalized message from a channel.
 *
 * @param channel            channel name ({@code telegram}, {@code discord}, {@code console}, ...)
 * @param account            account name within the channel ({@code default} for one bot)
 * @param chatId             platform chat / channel / DM id
 * @param threadId           thread or forum topic id, or null
 * @param senderId           platform user id of the sender
 * @param senderName         display name of the sender
 * @param text               message text (never null; empty for media without caption)
 * @param attachments        non-text parts
 * @param platformMessageId  the platform's id of this message, or null when it has none
 * @param receivedAt         when the gateway received it
 * @param direct             true for a DM, false for a group / channel message
 * @param mentionsBot        whether the message mentions (or replies to) the bot
 * @param senderIsAdmin      whether the platform reports the sender as an admin of this group
 * @param spaceId            the platform space the chat belongs to (a Discord guild id, a Slack
 *                           workspace's team id), or null where the platform has none (Telegram, DMs);
 *                           the scheduler's tenant of a group chat (docs/behaviour.md §11)
 * @param origin             what produced it: a chat message, a slash command or a scheduled job
 */
public record InboundMessage(
        String channel,
        String account,
        String chatId,
        String threadId,
        String senderId,
        String senderName,
        String text,
        List<Attachment> attachments,
        String platformMessageId,
        Instant receivedAt,
        boolean direct,
        boolean mentionsBot,
        boolean senderIsAdmin,
        String spaceId,
        Origin origin) {

    /** What produced a message. */
    public enum Origin {
        /** A message a user typed in the chat. */
        MESSAGE,
        /** A platform slash command (Discord interaction, Slack slash command). */
        SLASH_COMMAND,
        /** A scheduled job's prompt (the {@code schedules:} section); no user sent it. */
        SCHEDULE
    }

    /** A chat message without a space (the shape channels without spaces build). */
    public InboundMessage(String channel, String account, String chatId, String threadId, String senderId,
                          String senderName, String text, List<Attachment> attachments, String platformMessageId,
                          Instant receivedAt, boolean direct, boolean mentionsBot, boolean senderIsAdmin) {
        this(channel, account, chatId, threadId, senderId, senderName, text, attachments, platformMessageId,
                receivedAt, direct, mentionsBot, senderIsAdmin, null, Origin.MESSAGE);
    }

    public InboundMessage {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(chatId, "chatId");
        Objects.requireNonNull(senderId, "senderId");
        Objects.requireNonNull(receivedAt, "receivedAt");
        senderName = senderName == null || senderName.isBlank() ? senderId : senderName;
        text = text == null ? "" : text;
        attachments = attachments == null ? List.of() : List.copyOf(attachments);
        origin = origin == null ? Origin.MESSAGE : origin;
    }

    /** The route that answers this message: same chat and thread, replying to it. */
    public Route route() {
        return new Route(channel, account, chatId, threadId, platformMessageId);
    }

    /** A copy with other text (used for inline directives, which strip the command prefix). */
    public InboundMessage withText(String newText) {
        return new InboundMessage(channel, account, chatId, threadId, senderId, senderName, newText,
                attachments, platformMessageId, receivedAt, direct, mentionsBot, senderIsAdmin, spaceId, origin);
    }

    /** A copy with another admin flag (adapters that learn it after converting the message). */
    public InboundMessage withSenderIsAdmin(boolean admin) {
        return new InboundMessage(channel, account, chatId, threadId, senderId, senderName, text,
                attachments, platformMessageId, receivedAt, direct, mentionsBot, admin, spaceId, origin);
    }

    /** Builder for tests and channel adapters; defaults to a DM on account {@code default}. */
    public static Builder builder(String channel) {
        return new Builder(channel);
    }

    /** Fluent builder; every field but channel has a default. */
    public static final class Builder {
        private final String channel;
        private String account = "default";
        private String chatId = "chat";
        private String threadId;
        private String senderId = "user";
        private String senderName;
        private String text = "";
        private List<Attachment> attachments = List.of();
        private String platformMessageId;
        private Instant receivedAt = Instant.EPOCH;
        private boolean direct = true;
        private boolean mentionsBot;
        private boolean senderIsAdmin;
        private String spaceId;
        private Origin origin = Origin.MESSAGE;

        private Builder(String channel) {
            this.channel = channel;
        }

        public Builder account(String value) { this.account = value; return this; }
        public Builder chatId(String value) { this.chatId = value; return this; }
        public Builder threadId(String value) { this.threadId = value; return this; }
        public Builder senderId(String value) { this.senderId = value; return this; }
        public Builder senderName(String value) { this.senderName = value; return this; }
        public Builder text(String value) { this.text = value; return this; }
        public Builder attachments(List<Attachment> value) { this.attachments = value; return this; }
        public Builder platformMessageId(String value) { this.platformMessageId = value; return this; }
        public Builder receivedAt(Instant value) { this.receivedAt = value; return this; }
        public Builder direct(boolean value) { this.direct = value; return this; }
        public Builder mentionsBot(boolean value) { this.mentionsBot = value; return this; }
        public Builder senderIsAdmin(boolean value) { this.senderIsAdmin = value; return this; }
        public Builder spaceId(String value) { this.spaceId = value; return this; }
        public Builder origin(Origin value) { this.origin = value; return this; }

        public InboundMessage build() {
            return new InboundMessage(channel, account, chatId, threadId, senderId, senderName, text,
                    attachments, platformMessageId, receivedAt, direct, mentionsBot, senderIsAdmin, spaceId, origin);
        }
    }
}
