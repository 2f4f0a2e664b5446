package dev.laneway.channels.slack;

import dev.laneway.core.Attachment;
import dev.laneway.core.InboundMessage;
import java.time.Instant;
import java.util.List;

/**
 * A Slack message converted as far as the event itself allows; the sender's display name and
 * admin flag come from {@code users.info} afterwards ({@link SenderDirectory}).
 *
 * @param chatId     the Slack channel id ({@code C...}, {@code G...}, {@code D...})
 * @param threadId   the thread's {@code thread_ts}, or null for a DM's top level
 * @param senderId   the sender's user id
 * @param senderName the name the event carried (a slash command's {@code user_name}), or null
 * @param messageId  the message's {@code ts}, or a synthetic id for a slash command
 * @param mentionsBot whether it is for the bot: a mention, or a reply in a thread the bot is in
 * @param teamId     the workspace's team id ({@code team_id}), or null when the payload had none
 * @param slashCommand whether a slash command produced it
 */
record InboundDraft(String chatId, String threadId, String senderId, String senderName, String text,
                    List<Attachment> attachments, String messageId, boolean direct, boolean mentionsBot,
                    String teamId, boolean slashCommand) {

    InboundDraft {
        attachments = List.copyOf(attachments);
    }

    /** The key under which this message counts as already delivered (one per channel and ts). */
    String deliveryKey() {
        return "msg:" + chatId + ":" + messageId;
    }

    /** The key of the conversation this message continues, when it is in a channel thread. */
    String threadKey() {
        return threadId == null || direct ? null : SlackChannel.threadKey(chatId, threadId);
    }

    /** The same draft as a DM with the bot, or not. */
    InboundDraft withDirect(boolean value) {
        return new InboundDraft(chatId, threadId, senderId, senderName, text, attachments, messageId, value,
                mentionsBot, teamId, slashCommand);
    }

    InboundMessage toMessage(SenderDirectory.Sender sender, Instant receivedAt) {
        String name = sender.name() != null ? sender.name() : senderName;
        return new InboundMessage(SlackChannel.NAME, "default", chatId, threadId, senderId, name, text,
                attachments, messageId, receivedAt, direct, mentionsBot, sender.admin(), teamId,
                slashCommand ? InboundMessage.Origin.SLASH_COMMAND : InboundMessage.Origin.MESSAGE);
    }
}
