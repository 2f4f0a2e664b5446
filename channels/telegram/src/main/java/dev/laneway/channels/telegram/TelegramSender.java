package dev.laneway.channels.telegram;

import dev.laneway.core.Route;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.telegram.telegrambots.meta.api.methods.ParseMode;
import org.telegram.telegrambots.meta.api.methods.send.SendChatAction;
import org.telegram.telegrambots.meta.api.methods.send.SendMessage;
import org.telegram.telegrambots.meta.api.objects.ReplyParameters;
import org.telegram.telegrambots.meta.exceptions.TelegramApiException;
import org.telegram.telegrambots.meta.exceptions.TelegramApiRequestException;
import org.telegram.telegrambots.meta.generics.TelegramClient;

/**
 * Sends replies and typing actions. Each message is paced per chat ({@link Pacer}), waits out a
 * 429's {@code retry_after} for that chat only (the caller is that chat's own sending thread, so
 * other chats keep flowing), goes as HTML when it has formatting and again as plain text if
 * Telegram cannot parse it, and is retried when the server could not be reached at all (the
 * request never left, so a retry cannot duplicate it). Replies answer the message they belong to,
 * in its forum topic. Every 429 (for a message or a typing action) is reported to
 * {@code rateLimited}, the operators' counter.
 *
 * <p>Thread-safe: the pacer is the only shared state.
 */
final class TelegramSender {

    static final int MAX_LENGTH = 4096;
    static final int MAX_RATE_LIMIT_RETRIES = 5;
    static final int MAX_CONNECT_RETRIES = 3;
    private static final Duration CONNECT_RETRY_BASE = Duration.ofSeconds(1);
    private static final Logger log = LoggerFactory.getLogger(TelegramSender.class);

    private final TelegramClient client;
    private final Pacer pacer;
    private final InstantSource clock;
    private final Sleeper sleeper;
    private final Runnable rateLimited;

    /** @param rateLimited called for every 429 from Telegram (counted for operators) */
    TelegramSender(TelegramClient client, Pacer pacer, InstantSource clock, Sleeper sleeper, Runnable rateLimited) {
        this.client = client;
        this.pacer = pacer;
        this.clock = clock;
        this.sleeper = sleeper;
        this.rateLimited = rateLimited;
    }

    /**
     * Sends {@code text} as one message. The gateway's outbox is the only chunker: it hands over at
     * most {@link #MAX_LENGTH} characters; a longer text is refused before anything is sent.
     */
    void send(Route route, String text) throws TelegramApiException, InterruptedException {
        if (text.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("a Telegram message holds at most " + MAX_LENGTH + " characters, got "
                    + text.length() + " (the outbox chunks replies)");
        }
        sendOne(route, text);
    }

    /**
     * One typing action, unless the chat is waiting out a 429 (sending more would prolong it). A
     * 429 for the typing action itself pauses the chat like one for a message.
     */
    void typing(Route route) throws TelegramApiException {
        if (pacer.coolingDown(route.chatId(), clock.instant())) {
            return;
        }
        try {
            client.execute(SendChatAction.builder()
                    .chatId(route.chatId())
                    .action("typing")
                    .messageThreadId(threadOf(route))
                    .build());
        } catch (TelegramApiRequestException e) {
            if (isRateLimit(e)) {
                report();
                pacer.retryAfter(route.chatId(), retryAfter(e), clock.instant());
            }
            throw e;
        }
    }

    private void sendOne(Route route, String text) throws TelegramApiException, InterruptedException {
        String chatId = route.chatId();
        sleeper.sleep(pacer.reserve(chatId, isGroup(chatId), clock.instant()));
        Optional<String> html = TelegramMarkup.toHtml(text);
        boolean asHtml = html.isPresent();
        int rateLimited = 0;
        int unreachable = 0;
        while (true) {
            try {
                client.execute(message(route, asHtml ? html.get() : text, asHtml));
                return;
            } catch (TelegramApiRequestException e) {
                if (isRateLimit(e)) {
                    report();
                }
                if (isRateLimit(e) && rateLimited++ < MAX_RATE_LIMIT_RETRIES) {
                    Duration wait = retryAfter(e);
                    pacer.retryAfter(chatId, wait, clock.instant());
                    log.info("telegram: rate limited in chat {}; retrying in {} s as Telegram asks", chatId,
                            wait.toSeconds());
                    sleeper.sleep(wait);
                } else if (asHtml && cannotParse(e)) {
                    log.info("telegram: chat {} rejected the formatted reply ({}); sending it as plain text", chatId,
                            e.getApiResponse());
                    asHtml = false;
                } else {
                    throw e;
                }
            } catch (TelegramApiException e) {
                if (!neverSent(e) || unreachable++ >= MAX_CONNECT_RETRIES) {
                    throw e;
                }
                Duration wait = CONNECT_RETRY_BASE.multipliedBy(1L << (unreachable - 1));
                log.info("telegram: Bot API server unreachable ({}); retrying chat {} in {} s", rootCause(e), chatId,
                        wait.toSeconds());
                sleeper.sleep(wait);
            }
        }
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

    /** A 429's {@code retry_after} (at least 1 s). */
    static Duration retryAfter(TelegramApiRequestException e) {
        Integer seconds = e.getParameters() == null ? null : e.getParameters().getRetryAfter();
        return Duration.ofSeconds(seconds == null || seconds < 1 ? 1 : seconds);
    }

    private static boolean cannotParse(TelegramApiRequestException e) {
        return e.getErrorCode() != null && e.getErrorCode() == 400 && e.getApiResponse() != null
                && e.getApiResponse().toLowerCase(Locale.ROOT).contains("can't parse entities");
    }

    /** True when the request could not even be delivered (refused connection, unknown host). */
    private static boolean neverSent(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException || t instanceof UnknownHostException || t instanceof NoRouteToHostException) {
                return true;
            }
        }
        return false;
    }

    private static String rootCause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName();
    }
}
