package dev.laneway.channels.telegram;

import dev.laneway.core.channel.Receipt;
import java.util.List;
import org.telegram.telegrambots.meta.api.methods.reactions.SetMessageReaction;
import org.telegram.telegrambots.meta.api.objects.reactions.ReactionType;
import org.telegram.telegrambots.meta.api.objects.reactions.ReactionTypeEmoji;
import dev.laneway.core.Route;
import dev.laneway.core.channel.ChatPacer;
import dev.laneway.core.channel.Redactor;
import dev.laneway.core.channel.RetryAfter;
import dev.laneway.core.channel.SendFailure;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.telegram.telegrambots.meta.api.methods.ParseMode;
import org.telegram.telegrambots.meta.api.methods.send.SendChatAction;
import org.telegram.telegrambots.meta.api.methods.send.SendMessage;
import org.telegram.telegrambots.meta.api.methods.send.SendMessageDraft;
import org.telegram.telegrambots.meta.api.methods.updatingmessages.EditMessageText;
import org.telegram.telegrambots.meta.api.objects.ReplyParameters;
import org.telegram.telegrambots.meta.api.objects.message.Message;
import org.telegram.telegrambots.meta.exceptions.TelegramApiException;
import org.telegram.telegrambots.meta.exceptions.TelegramApiRequestException;
import org.telegram.telegrambots.meta.generics.TelegramClient;

/**
 * Sends replies and typing actions, each once: the gateway's outbox paces the chat (it asks
 * {@link #pace}, which books the slot from the {@link ChatPacer}), waits out a 429 for that chat
 * only, and retries what Telegram could not take. This class tells it which is which, as a
 * {@link SendFailure}: a 429 with its {@code retry_after}; a 5xx, a reply that cannot be read, or a
 * server that could not be reached at all, to try again; a read timeout, or a connection that failed
 * once the request was being sent, which may mean the message arrived; anything else, refused. Its
 * client sends each call to Telegram at most once ({@link SendOnce}, D249). A message goes as HTML when it has formatting and again
 * as plain text if Telegram cannot parse it. Replies answer the message they belong to, in its
 * forum topic. Every 429 (for a message or a typing action) is reported to {@code rateLimited},
 * the operators' counter. Nothing the Bot API says reaches a log or an exception unredacted.
 *
 * <p>Drafts (docs/behaviour.md §16.1, D211): with drafts on, a live answer in a private chat is
 * posted and changed with {@code sendMessageDraft} (its id is {@code draft:<n>}), and its final text
 * is sent with {@code sendMessage} ({@link #keep}). A chat whose Bot API server refuses a draft (an
 * older or self-hosted server answers 400 or 404) is remembered, and its answers are sent, then
 * edited from then on; a draft call whose answer did not come in time counts as done (a draft is
 * only a preview: the next change, or the final message, makes up for it).
 *
 * <p>Thread-safe: the pacer, the set of chats that refused drafts (concurrent) and the draft
 * counter (atomic) are the shared state.
 */
final class TelegramSender {

    static final int MAX_LENGTH = 4096;
    private static final Logger log = LoggerFactory.getLogger(TelegramSender.class);

    private final TelegramClient client;
    private final ChatPacer pacer;
    private final InstantSource clock;
    private final Redactor redactor;
    private final Runnable rateLimited;
    private final boolean drafts;
    // chats whose Bot API refused sendMessageDraft: their answers are sent, then edited
    private final Set<String> draftsRefused = ConcurrentHashMap.newKeySet();
    private final AtomicInteger nextDraft = new AtomicInteger();

    /** The prefix of a live answer's id that names a draft, not a message. */
    static final String DRAFT = "draft:";

    /** @param rateLimited called for every 429 from Telegram (counted for operators) */
    TelegramSender(TelegramClient client, ChatPacer pacer, InstantSource clock, Redactor redactor, Runnable rateLimited) {
        this(client, pacer, clock, redactor, rateLimited, false);
    }

    /** @param drafts a private chat's live answer streams as a draft */
    TelegramSender(TelegramClient client, ChatPacer pacer, InstantSource clock, Redactor redactor, Runnable rateLimited,
                   boolean drafts) {
        this.drafts = drafts;
        this.client = client;
        this.pacer = pacer;
        this.clock = clock;
        this.redactor = redactor;
        this.rateLimited = rateLimited;
    }

    /** Books the next message's slot in the route's chat; how long the outbox waits before sending it. */
    Duration pace(Route route) {
        return pacer.reserve(route.chatId(), isGroup(route.chatId()), clock.instant());
    }

    /** A Bot API answer to {@code sendMessage}, read once at start to build the SDK's reader (D225). */
    private static final String CANNED_MESSAGE = "{\"ok\":true,\"result\":{\"message_id\":1,\"date\":1,"
            + "\"from\":{\"id\":1,\"is_bot\":true,\"first_name\":\"b\"},\"chat\":{\"id\":1,\"type\":\"private\"},"
            + "\"text\":\"t\"}}";

    /**
     * Reads a canned {@code sendMessage} answer (and an {@code editMessageText} one) as the SDK reads
     * Telegram's, so the SDK builds its reader of a {@code Message} now, at start, rather than inside
     * the first replies: that takes about 250 ms on a cold JVM, during which each first reply is out
     * but its message is not yet recorded answered, so a kill then runs it again (docs/decisions.md
     * D225, L41). Nothing is sent; a failure only costs the first reply that time. The canned
     * message's {@code date} is not 0: the SDK reads a message dated 0 as an inaccessible one and
     * refuses it as a {@code sendMessage} answer.
     *
     * @return whether both readers were built
     */
    static boolean warmReplyReader() {
        long started = System.nanoTime();
        try {
            SendMessage.builder().chatId("1").text("t").build().deserializeResponse(CANNED_MESSAGE);
            EditMessageText.builder().chatId("1").messageId(1).text("t").build().deserializeResponse(CANNED_MESSAGE);
            log.debug("telegram: the SDK's reply reader built in {} ms", (System.nanoTime() - started) / 1_000_000);
            return true;
        } catch (TelegramApiException | RuntimeException e) {
            log.debug("telegram: could not build the SDK's reply reader ahead of the first reply: {}", e.toString());
            return false;
        }
    }

    /**
     * Sends {@code text} as one message. The gateway's outbox is the only chunker: it hands over at
     * most {@link #MAX_LENGTH} characters; a longer text is refused before anything is sent.
     */
    void send(Route route, String text) throws SendFailure {
        keep(route, text); // a plain reply or notice is a message, never a draft
    }

    /**
     * As {@link #send}; returns the new message's id (to edit it: a live answer, docs/behaviour.md §16),
     * or null. In a private chat with drafts on, shows {@code text} as a new draft instead and returns
     * its id ({@link #DRAFT}{@code <n>}); a refused draft turns drafts off for the chat, and the text
     * is sent as a message.
     */
    String post(Route route, String text) throws SendFailure {
        checkLength(text);
        if (drafts && !isGroup(route.chatId()) && !draftsRefused.contains(route.chatId())) {
            int draftId = nextDraft.updateAndGet(n -> n == Integer.MAX_VALUE ? 1 : n + 1);
            try {
                draft(route, draftId, text);
                return DRAFT + draftId;
            } catch (SendFailure failure) {
                if (failure.kind() != SendFailure.Kind.REFUSED) {
                    throw failure;
                }
                // refused before anything showed: this answer, and the chat's later ones, are sent, then edited
            }
        }
        return keep(route, text);
    }

    /** Whether a live answer's id names a draft. */
    static boolean isDraft(String id) {
        return id != null && id.startsWith(DRAFT);
    }

    /** Sends {@code text} as a message (never a draft); returns its id, or null. */
    String keep(Route route, String text) throws SendFailure {
        checkLength(text);
        Message sent = sendOne(route, text);
        // no message in the answer: it went, but cannot be edited (the live answer sends the rest anew)
        return sent == null || sent.getMessageId() == null ? null : Integer.toString(sent.getMessageId());
    }

    /**
     * Replaces the text of the bot's message {@code messageId} ({@code editMessageText}), as HTML when it
     * has formatting and again as plain text if Telegram cannot parse it. "Message is not modified"
     * (the same text again) counts as done.
     */
    void edit(Route route, String messageId, String text) throws SendFailure {
        checkLength(text);
        if (isDraft(messageId)) {
            Integer draftId = parseId(messageId.substring(DRAFT.length()));
            if (draftId == null) {
                throw SendFailure.refused("telegram sendMessageDraft: not a draft id: " + messageId);
            }
            draft(route, draftId, text);
            return;
        }
        Integer id = parseId(messageId);
        if (id == null) {
            throw SendFailure.refused("telegram editMessageText: not a message id: " + messageId);
        }
        Optional<String> html = TelegramMarkup.toHtml(text);
        try {
            try {
                client.execute(edit(route, id, html.orElse(text), html.isPresent()));
                return;
            } catch (TelegramApiRequestException e) {
                if (html.isEmpty() || !cannotParse(e)) {
                    throw e;
                }
                log.info("telegram: chat {} rejected the formatted edit ({}); editing as plain text", route.chatId(),
                        redactor.redact(e.getApiResponse()));
            }
            client.execute(edit(route, id, text, false));
        } catch (TelegramApiRequestException e) {
            if (notModified(e)) {
                return;
            }
            throw failure("editMessageText", e);
        } catch (TelegramApiException e) {
            throw failure("editMessageText", e);
        }
    }

    /**
     * Shows {@code text} as draft {@code draftId} in a private chat ({@code sendMessageDraft}), as HTML
     * when it has formatting and again as plain text if Telegram cannot parse it. An answer that did
     * not come in time counts as done; a refusal (not a 429, not a 5xx) turns drafts off for the chat.
     */
    private void draft(Route route, int draftId, String text) throws SendFailure {
        Optional<String> html = TelegramMarkup.toHtml(text);
        try {
            try {
                client.execute(draftOf(route, draftId, html.orElse(text), html.isPresent()));
                return;
            } catch (TelegramApiRequestException e) {
                if (html.isEmpty() || !cannotParse(e)) {
                    throw e;
                }
            }
            client.execute(draftOf(route, draftId, text, false));
        } catch (TelegramApiException e) {
            SendFailure failure = failure("sendMessageDraft", e);
            if (failure.kind() == SendFailure.Kind.OUTCOME_UNKNOWN) {
                return; // a preview: the next change or the final message makes up for it
            }
            if (failure.kind() == SendFailure.Kind.REFUSED && draftsRefused.add(route.chatId())) {
                log.info("telegram: chat {} refused a draft ({}); its answers are sent, then edited from now on",
                        route.chatId(), failure.getMessage());
            }
            throw failure;
        }
    }

    private static SendMessageDraft draftOf(Route route, int draftId, String text, boolean html) {
        SendMessageDraft.SendMessageDraftBuilder<?, ?> builder = SendMessageDraft.builder()
                .chatId(Long.parseLong(route.chatId()))
                .draftId(draftId)
                .text(text)
                .messageThreadId(threadOf(route));
        if (html) {
            builder.parseMode(ParseMode.HTML);
        }
        return builder.build();
    }

    private static void checkLength(String text) {
        if (text.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("a Telegram message holds at most " + MAX_LENGTH + " characters, got "
                    + text.length() + " (the outbox chunks replies)");
        }
    }

    private static EditMessageText edit(Route route, int messageId, String text, boolean html) {
        EditMessageText.EditMessageTextBuilder<?, ?> builder = EditMessageText.builder()
                .chatId(route.chatId())
                .messageId(messageId)
                .text(text);
        if (html) {
            builder.parseMode(ParseMode.HTML);
        }
        return builder.build();
    }

    private static boolean notModified(TelegramApiRequestException e) {
        return e.getErrorCode() != null && e.getErrorCode() == 400 && e.getApiResponse() != null
                && e.getApiResponse().toLowerCase(Locale.ROOT).contains("message is not modified");
    }

    /** One typing action; a 429 for it pauses the chat in the outbox like one for a message. */
    void typing(Route route) throws SendFailure {
        try {
            client.execute(SendChatAction.builder()
                    .chatId(route.chatId())
                    .action("typing")
                    .messageThreadId(threadOf(route))
                    .build());
        } catch (TelegramApiException e) {
            throw failure("sendChatAction", e);
        }
    }

    /**
     * A receipt as the bot's reaction ({@code setMessageReaction}, docs/behaviour.md §16.5): one call
     * replaces what the bot showed on the message, an empty list removes it. Every receipt's emoji is
     * in Telegram's allowed set; a chat whose admins allow fewer reactions refuses it
     * ({@code REACTION_INVALID}), which the gateway logs once per chat. Not paced: a reaction is no
     * message, and a 429 for one pauses nothing (it is only counted).
     */
    void react(Route route, Receipt shown) throws SendFailure {
        Integer messageId = parseId(route.replyToMessageId());
        if (messageId == null) {
            return; // not a message (a command from a menu has one; a scheduled job's prompt none)
        }
        List<ReactionType> reactions = shown == null ? List.of() : List.of(new ReactionTypeEmoji(shown.emoji()));
        try {
            client.execute(SetMessageReaction.builder()
                    .chatId(route.chatId())
                    .messageId(messageId)
                    .reactionTypes(reactions)
                    .build());
        } catch (TelegramApiException e) {
            throw failure("setMessageReaction", e);
        }
    }

    private Message sendOne(Route route, String text) throws SendFailure {
        Optional<String> html = TelegramMarkup.toHtml(text);
        if (html.isPresent()) {
            try {
                return client.execute(message(route, html.get(), true));
            } catch (TelegramApiRequestException e) {
                if (!cannotParse(e)) {
                    throw failure("sendMessage", e);
                }
                log.info("telegram: chat {} rejected the formatted reply ({}); sending it as plain text", route.chatId(),
                        redactor.redact(e.getApiResponse()));
            } catch (TelegramApiException e) {
                throw failure("sendMessage", e);
            }
        }
        try {
            return client.execute(message(route, text, false));
        } catch (TelegramApiException e) {
            throw failure("sendMessage", e);
        }
    }

    /** What the outbox should make of a failed call, reporting a 429 for operators on the way. */
    private SendFailure failure(String method, TelegramApiException e) {
        String detail = "telegram " + method + ": " + redactor.describe(e);
        if (mayHaveArrived(e)) {
            // an attempt failed once its request was being sent (SendOnce): like no answer in time
            return SendFailure.outcomeUnknown(detail);
        }
        if (SendFailure.neverSent(e)) {
            return SendFailure.unavailable(detail);
        }
        if (SendFailure.timedOut(e)) {
            return SendFailure.outcomeUnknown(detail);
        }
        if (e instanceof TelegramApiRequestException request) {
            int code = request.getErrorCode() == null ? 0 : request.getErrorCode();
            if (code == 429) {
                report();
                return SendFailure.rateLimited(retryAfter(request), detail);
            }
            if (code >= 500 || code == 0) {
                // a server error, or (no code) a reply the SDK could not read: a proxy's error page
                return SendFailure.unavailable(detail);
            }
        }
        return SendFailure.refused(detail);
    }

    /** Whether the SDK's failure wraps a {@link SendOnce.MayHaveArrived}. */
    private static boolean mayHaveArrived(TelegramApiException e) {
        for (Throwable t = e.getCause(); t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SendOnce.MayHaveArrived) {
                return true;
            }
        }
        return false;
    }

    private void report() {
        try {
            rateLimited.run();
        } catch (RuntimeException e) {
            log.debug("telegram: reporting a rate limit failed: {}", e.toString());
        }
    }

    private static SendMessage message(Route route, String text, boolean html) {
        SendMessage.SendMessageBuilder<?, ?> builder = SendMessage.builder()
                .chatId(route.chatId())
                .text(text)
                .messageThreadId(threadOf(route));
        if (html) {
            builder.parseMode(ParseMode.HTML);
        }
        Integer replyTo = parseId(route.replyToMessageId());
        if (replyTo != null) {
            builder.replyParameters(ReplyParameters.builder().messageId(replyTo).allowSendingWithoutReply(true).build());
        }
        return builder.build();
    }

    /** Group and supergroup ids are negative, users' positive. */
    static boolean isGroup(String chatId) {
        return chatId.startsWith("-");
    }

    private static Integer threadOf(Route route) {
        return parseId(route.threadId());
    }

    private static Integer parseId(String id) {
        if (id == null) {
            return null;
        }
        try {
            return Integer.valueOf(id);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    static boolean isRateLimit(TelegramApiRequestException e) {
        return e.getErrorCode() != null && e.getErrorCode() == 429;
    }

    /** A 429's {@code retry_after}, through the one clamp. */
    static Duration retryAfter(TelegramApiRequestException e) {
        return RetryAfter.ofSeconds(e.getParameters() == null ? null : e.getParameters().getRetryAfter());
    }

    private static boolean cannotParse(TelegramApiRequestException e) {
        return e.getErrorCode() != null && e.getErrorCode() == 400 && e.getApiResponse() != null
                && e.getApiResponse().toLowerCase(Locale.ROOT).contains("can't parse entities");
    }
}
