package dev.laneway.channels.discord;

import dev.laneway.core.Attachment;
import dev.laneway.core.InboundMessage;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import net.dv8tion.jda.api.Permission;
import net.dv8tion.jda.api.entities.Member;
import net.dv8tion.jda.api.entities.Message;
import net.dv8tion.jda.api.entities.MessageType;
import net.dv8tion.jda.api.entities.Role;
import net.dv8tion.jda.api.entities.User;
import net.dv8tion.jda.api.entities.channel.ChannelType;
import net.dv8tion.jda.api.entities.channel.concrete.ThreadChannel;
import net.dv8tion.jda.api.entities.channel.middleman.MessageChannel;
import net.dv8tion.jda.api.interactions.commands.SlashCommandInteraction;

/**
 * Turns Discord messages and slash commands into {@link InboundMessage}s, and decides which
 * messages are for the bot: never its own or another bot's, never system or webhook messages; in
 * guilds, when {@code guilds.requireMention} is on, only messages that mention the bot or reply to
 * it. Mentioning the bot's own managed role ({@code <@&roleId>}, what Discord's autocomplete often
 * offers for a bot) counts as mentioning the bot, and is removed from the text like the user
 * mention. Access lists and dedupe are the gateway's job (slash commands are also checked against the
 * access list by {@link SlashCommandIntake}, which must answer them). Stateless, so any thread may
 * call it.
 */
final class InboundConverter {

    private final boolean requireMention;
    private final InstantSource clock;

    InboundConverter(boolean requireMention, InstantSource clock) {
        this.requireMention = requireMention;
        this.clock = clock;
    }

    /** The inbound message for a received Discord message, or empty when it is not for the bot. */
    Optional<InboundMessage> fromMessage(Message message) {
        User author = message.getAuthor();
        if (author.isBot() || author.isSystem() || message.isWebhookMessage() || !isChat(message.getType())) {
            return Optional.empty();
        }
        User self = message.getJDA().getSelfUser();
        List<String> ownRoles = ownRolesMentioned(message, self);
        boolean mentionsBot = message.getMentions().isMentioned(self, Message.MentionType.USER) || !ownRoles.isEmpty()
                || repliesTo(message, self);
        boolean direct = message.getChannelType() == ChannelType.PRIVATE;
        if (!direct && requireMention && !mentionsBot) {
            return Optional.empty();
        }
        String text = withoutMention(message.getContentRaw(), self.getId(), ownRoles);
        List<Attachment> attachments = message.getAttachments().stream()
                .map(InboundConverter::attachment)
                .toList();
        if (text.isEmpty() && attachments.isEmpty()) {
            return Optional.empty();
        }
        Member member = message.isFromGuild() ? message.getMember() : null;
        return Optional.of(place(message.getChannel(), author)
                .builder()
                .senderId(author.getId())
                .senderName(member != null ? member.getEffectiveName() : author.getEffectiveName())
                .text(text)
                .attachments(attachments)
                .platformMessageId(message.getId())
                .receivedAt(clock.instant())
                .mentionsBot(mentionsBot)
                .senderIsAdmin(isAdmin(member))
                .spaceId(message.isFromGuild() ? message.getGuildId() : null)
                .build());
    }

    /**
     * One attachment (docs/behaviour.md §15.1): its CDN URL is the reference (signed, valid for about a
     * day, fetched without a token).
     */
    static Attachment attachment(Message.Attachment a) {
        String type = a.getContentType();
        String kind = a.getWaveform() != null ? "voice" : type == null ? "file"
                : type.startsWith("image/") ? "image" : type.startsWith("audio/") ? "audio"
                : type.startsWith("video/") ? "video" : "file";
        return new Attachment(kind, a.getFileName(), type, a.getSize(), a.getUrl());
    }

    /** The inbound message for a slash command, whose text is the equivalent command line. */
    InboundMessage fromInteraction(SlashCommandInteraction interaction, String commandLine) {
        User user = interaction.getUser();
        Member member = interaction.getMember();
        return place(interaction.getChannel(), user)
                .builder()
                .senderId(user.getId())
                .senderName(member != null ? member.getEffectiveName() : user.getEffectiveName())
                .text(commandLine)
                .platformMessageId(Addresses.interactionMessageId(interaction.getId()))
                .receivedAt(clock.instant())
                .mentionsBot(true)
                .senderIsAdmin(isAdmin(member))
                .spaceId(interaction.getGuild() != null ? interaction.getGuild().getId() : null)
                .origin(InboundMessage.Origin.SLASH_COMMAND)
                .build();
    }

    /** Server admins count as group admins: Administrator or Manage Server (owners have both). */
    static boolean isAdmin(Member member) {
        return member != null && (member.hasPermission(Permission.ADMINISTRATOR) || member.hasPermission(Permission.MANAGE_SERVER));
    }

    /** Removes the bot's own {@code <@id>} / {@code <@!id>} mentions and trims. */
    static String withoutMention(String raw, String selfId) {
        return withoutMention(raw, selfId, List.of());
    }

    /** Removes the bot's own user mentions and mentions of its own roles ({@code <@&roleId>}), and trims. */
    static String withoutMention(String raw, String selfId, List<String> ownRoleIds) {
        StringBuilder alternatives = new StringBuilder("@!?" + Pattern.quote(selfId));
        ownRoleIds.forEach(id -> alternatives.append("|@&").append(Pattern.quote(id)));
        return Pattern.compile("<(?:" + alternatives + ")>\\s*").matcher(raw).replaceAll("").strip();
    }

    /**
     * The ids of the mentioned roles that are this bot's own: the role Discord manages for the bot
     * (its tags name the bot), or a managed role the bot's member holds.
     */
    private static List<String> ownRolesMentioned(Message message, User self) {
        if (!message.isFromGuild() || message.getMentions().getRoles().isEmpty()) {
            return List.of();
        }
        Member me = message.getGuild().getSelfMember();
        return message.getMentions().getRoles().stream()
                .filter(role -> role.getTags().getBotIdLong() == self.getIdLong()
                        || (role.isManaged() && me.getRoles().contains(role)))
                .map(Role::getId)
                .toList();
    }

    private static boolean repliesTo(Message message, User self) {
        Message referenced = message.getReferencedMessage();
        return referenced != null && referenced.getAuthor().getIdLong() == self.getIdLong();
    }

    private static boolean isChat(MessageType type) {
        return type == MessageType.DEFAULT || type == MessageType.INLINE_REPLY;
    }

    private static Place place(MessageChannel channel, User sender) {
        if (channel instanceof ThreadChannel thread) {
            return new Place(thread.getParentChannel().getId(), thread.getId(), false);
        }
        if (channel.getType() == ChannelType.PRIVATE) {
            return new Place(Addresses.dmChat(sender.getId()), null, true);
        }
        return new Place(channel.getId(), null, false);
    }

    /** Where a message was written, in Laneway's terms (see {@link Addresses}). */
    private record Place(String chatId, String threadId, boolean direct) {
        InboundMessage.Builder builder() {
            return InboundMessage.builder(DiscordChannel.NAME).chatId(chatId).threadId(threadId).direct(direct);
        }
    }
}
