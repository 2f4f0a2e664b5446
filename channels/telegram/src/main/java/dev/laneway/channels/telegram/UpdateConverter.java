package dev.laneway.channels.telegram;

import java.util.Comparator;
import org.telegram.telegrambots.meta.api.objects.photo.PhotoSize;
import dev.laneway.core.Attachment;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.Route;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.telegram.telegrambots.meta.api.objects.MessageEntity;
import org.telegram.telegrambots.meta.api.objects.Update;
import org.telegram.telegrambots.meta.api.objects.User;
import org.telegram.telegrambots.meta.api.objects.chat.Chat;
import org.telegram.telegrambots.meta.api.objects.message.Message;

/**
 * Turns a Telegram update into an {@link Inbound} decision. Pure apart from reading the clock for
 * {@code receivedAt}: no I/O, safe on the polling thread.
 *
 * <p>Rules: only new messages count (edits, channel posts and everything else are skipped);
 * messages from bots (other than an anonymous group admin) and automatic forwards are skipped; a
 * command addressed to another bot ({@code /stop@OtherBot}) is skipped, and the {@code @ThisBot}
 * suffix of one addressed to this bot is removed ({@code /queue@ThisBot collect} becomes
 * {@code /queue collect}); in groups with {@code requireMention}, only messages that mention the
 * bot, reply to it, or are one of its own commands are taken: a bare {@code /queue}, {@code /status},
 * {@code /stop}, {@code /new} or {@code /reset}, or any command with this bot's {@code @suffix} (a
 * bare {@code /help} or {@code /start} may be meant for another bot in the group). A leading
 * {@code @ThisBot} mention is removed from the text. Only a group command that needs authority
 * ({@code /queue}, {@code /stop}, {@code /new}, {@code /reset}) asks for the sender's admin status,
 * so ordinary messages never wait for an administrator lookup. Media use their caption; media without one get a "text only" notice. A forum topic's
 * {@code message_thread_id} is the thread (reply chains in ordinary groups are not threads).
 */
final class UpdateConverter {

    static final String CHANNEL = "telegram";
    static final String ACCOUNT = "default";
    /** The user Telegram shows as the sender of messages that group admins post anonymously. */
    static final long ANONYMOUS_ADMIN = 1087968824L;
    static final String TEXT_ONLY = "Sorry, I can only read text and files (photos, documents, voice notes). "
            + "Please send your message as text.";

    private static final Pattern COMMAND = Pattern.compile("^/([A-Za-z0-9_]{1,64})(?:@([A-Za-z0-9_]+))?(?=\\s|$)");
    /** The chat commands this gateway answers (the commands module's words). */
    static final Set<String> OWN_COMMANDS = Set.of("queue", "status", "stop", "new", "reset");
    /** The ones whose outcome depends on the sender's authority in a group. */
    private static final Set<String> NEED_AUTHORITY = Set.of("queue", "stop", "new", "reset");

    private final BotIdentity bot;
    private final boolean groupsRequireMention;
    private final InstantSource clock;
    private final Pattern leadingMention;
    private final Pattern anyMention;

    UpdateConverter(BotIdentity bot, boolean groupsRequireMention, InstantSource clock) {
        this.bot = bot;
        this.groupsRequireMention = groupsRequireMention;
        this.clock = clock;
        String name = Pattern.quote(bot.username());
        this.leadingMention = Pattern.compile("^\\s*@" + name + "(?!\\w)[\\s,:]*", Pattern.CASE_INSENSITIVE);
        this.anyMention = Pattern.compile("(?<![\\w@])@" + name + "(?!\\w)", Pattern.CASE_INSENSITIVE);
    }

    Inbound convert(Update update) {
        Message message = update.getMessage();
        if (message == null) {
            return new Inbound.Skip(update.getEditedMessage() != null ? "edited message" : "not a new message");
        }
        Chat chat = message.getChat();
        User from = message.getFrom();
        if (chat == null || from == null || Boolean.TRUE.equals(chat.isChannelChat())) {
            return new Inbound.Skip("no sender");
        }
        boolean anonymousAdmin = message.getSenderChat() != null && chat.getId().equals(message.getSenderChat().getId());
        if (from.getId() == bot.id()) {
            return new Inbound.Skip("own message");
        }
        if (Boolean.TRUE.equals(from.getIsBot()) && !anonymousAdmin) {
            return new Inbound.Skip("from a bot");
        }
        if (Boolean.TRUE.equals(message.getIsAutomaticForward())) {
            return new Inbound.Skip("automatic forward");
        }
        boolean direct = Boolean.TRUE.equals(chat.isUserChat());
        boolean hasText = message.getText() != null;
        String body = hasText ? message.getText() : message.getCaption() == null ? "" : message.getCaption();
        List<MessageEntity> entities = hasText ? message.getEntities() : message.getCaptionEntities();

        String text = stripLeadingMention(body);
        Matcher command = COMMAND.matcher(text);
        boolean isCommand = command.find();
        String word = isCommand ? command.group(1).toLowerCase(Locale.ROOT) : null;
        boolean suffixed = isCommand && command.group(2) != null;
        if (suffixed) {
            if (!bot.isNamed(command.group(2))) {
                return new Inbound.Skip("command for another bot");
            }
            text = "/" + command.group(1) + text.substring(command.end());
        }
        boolean ownCommand = isCommand && (suffixed || OWN_COMMANDS.contains(word));
        boolean mentioned = mentions(body, entities);
        boolean addressed = ownCommand || mentioned || repliesToBot(message);
        if (!direct && groupsRequireMention && !addressed) {
            return new Inbound.Skip("not addressed to the bot");
        }

        String chatId = Long.toString(chat.getId());
        String threadId = message.isTopicMessage() && message.getMessageThreadId() != null
                ? Integer.toString(message.getMessageThreadId()) : null;
        String messageId = Integer.toString(message.getMessageId());
        String senderId = Long.toString(from.getId());
        List<Attachment> attachments = attachments(message);
        if (text.isBlank() && attachments.stream().noneMatch(Attachment::fetchable)) {
            if (!attachments.isEmpty()) {
                return new Inbound.Notify(new Route(CHANNEL, ACCOUNT, chatId, threadId, messageId), senderId, TEXT_ONLY);
            }
            return new Inbound.Skip("no text");
        }
        InboundMessage converted = InboundMessage.builder(CHANNEL)
                .account(ACCOUNT)
                .chatId(chatId)
                .threadId(threadId)
                .senderId(senderId)
                .senderName(anonymousAdmin ? anonymousName(message, chat) : displayName(from))
                .text(text)
                .attachments(attachments)
                .platformMessageId(messageId)
                .receivedAt(clock.instant())
                .direct(direct)
                .mentionsBot(addressed)
                .senderIsAdmin(anonymousAdmin)
                .build();
        boolean needsAuthority = isCommand && NEED_AUTHORITY.contains(word);
        return new Inbound.Deliver(converted, !direct && !anonymousAdmin && needsAuthority);
    }

    /** The text without a leading {@code @ThisBot}; the original when nothing else would be left. */
    private String stripLeadingMention(String body) {
        Matcher matcher = leadingMention.matcher(body);
        if (!matcher.find()) {
            return body;
        }
        String rest = body.substring(matcher.end());
        return rest.isBlank() ? body : rest;
    }

    private boolean mentions(String body, List<MessageEntity> entities) {
        if (entities == null || entities.isEmpty()) {
            return anyMention.matcher(body).find();
        }
        for (MessageEntity entity : entities) {
            if ("mention".equals(entity.getType())) {
                int start = entity.getOffset();
                int end = start + entity.getLength();
                if (start >= 0 && end <= body.length() && bot.isNamed(body.substring(start, end))) {
                    return true;
                }
            } else if ("text_mention".equals(entity.getType()) && entity.getUser() != null
                    && entity.getUser().getId() == bot.id()) {
                return true;
            }
        }
        return false;
    }

    private boolean repliesToBot(Message message) {
        Message replied = message.getReplyToMessage();
        // in forum topics every message "replies" to the topic's creation message: not a reply to the bot
        return replied != null && replied.getFrom() != null && replied.getFrom().getId() == bot.id()
                && replied.getForumTopicCreated() == null;
    }

    /**
     * The message's parts (docs/behaviour.md §15.1): photos (the largest size), documents, animations,
     * videos, video notes, voice notes and audio as files with their file id; stickers, contacts,
     * locations, venues, polls and dice as parts that cannot be fetched.
     */
    private static List<Attachment> attachments(Message message) {
        List<Attachment> parts = new ArrayList<>();
        if (message.getPhoto() != null && !message.getPhoto().isEmpty()) {
            PhotoSize largest = message.getPhoto().stream()
                    .max(Comparator.comparingLong(p -> (long) orZero(p.getWidth()) * orZero(p.getHeight())))
                    .orElseThrow();
            parts.add(new Attachment("photo", "photo.jpg", "image/jpeg", size(largest.getFileSize()),
                    largest.getFileId()));
        }
        if (message.getAnimation() != null) {
            var a = message.getAnimation();
            parts.add(new Attachment("animation", a.getFileName(), a.getMimeType(), size(a.getFileSize()), a.getFileId()));
        } else if (message.getDocument() != null) {
            var d = message.getDocument();
            parts.add(new Attachment("document", d.getFileName(), d.getMimeType(), size(d.getFileSize()), d.getFileId()));
        }
        if (message.getVideo() != null) {
            var v = message.getVideo();
            parts.add(new Attachment("video", v.getFileName(), v.getMimeType(), size(v.getFileSize()), v.getFileId()));
        }
        if (message.getVideoNote() != null) {
            var v = message.getVideoNote();
            parts.add(new Attachment("video_note", "video_note.mp4", "video/mp4", size(v.getFileSize()), v.getFileId()));
        }
        if (message.getVoice() != null) {
            var v = message.getVoice();
            parts.add(new Attachment("voice", "voice.ogg", v.getMimeType() == null ? "audio/ogg" : v.getMimeType(),
                    size(v.getFileSize()), v.getFileId()));
        }
        if (message.getAudio() != null) {
            var a = message.getAudio();
            parts.add(new Attachment("audio", a.getFileName() == null ? "audio" : a.getFileName(), a.getMimeType(),
                    size(a.getFileSize()), a.getFileId()));
        }
        addIf(parts, message.getSticker() != null, "sticker");
        addIf(parts, message.getContact() != null, "contact");
        addIf(parts, message.getLocation() != null && message.getVenue() == null, "location");
        addIf(parts, message.getVenue() != null, "venue");
        addIf(parts, message.getPoll() != null, "poll");
        addIf(parts, message.getDice() != null, "dice");
        return parts;
    }

    private static long size(Number declared) {
        return declared == null ? -1 : declared.longValue();
    }

    private static int orZero(Integer value) {
        return value == null ? 0 : value;
    }

    private static void addIf(List<Attachment> parts, boolean present, String kind) {
        if (present) {
            parts.add(new Attachment(kind, null));
        }
    }

    private static String displayName(User user) {
        String name = user.getLastName() == null ? user.getFirstName() : user.getFirstName() + " " + user.getLastName();
        if (name == null || name.isBlank()) {
            return user.getUserName() != null ? user.getUserName() : Long.toString(user.getId());
        }
        return name.strip();
    }

    private static String anonymousName(Message message, Chat chat) {
        if (message.getAuthorSignature() != null && !message.getAuthorSignature().isBlank()) {
            return message.getAuthorSignature();
        }
        return chat.getTitle() == null || chat.getTitle().isBlank() ? "Group admin" : chat.getTitle() + " (admin)";
    }
}
