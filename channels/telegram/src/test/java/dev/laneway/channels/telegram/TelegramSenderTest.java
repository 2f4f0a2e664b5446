package dev.laneway.channels.telegram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Route;
import java.lang.reflect.Proxy;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.telegram.telegrambots.meta.api.methods.botapimethods.BotApiMethod;
import org.telegram.telegrambots.meta.api.methods.send.SendChatAction;
import org.telegram.telegrambots.meta.api.methods.send.SendMessage;
import org.telegram.telegrambots.meta.api.objects.ApiResponse;
import org.telegram.telegrambots.meta.api.objects.ResponseParameters;
import org.telegram.telegrambots.meta.exceptions.TelegramApiException;
import org.telegram.telegrambots.meta.exceptions.TelegramApiRequestException;
import org.telegram.telegrambots.meta.generics.TelegramClient;

/** The send loop on virtual time: no test here sleeps. */
class TelegramSenderTest {

    private static final Route DM = new Route("telegram", "default", "101", null, "5");
    private final VirtualTime time = new VirtualTime();
    private final List<BotApiMethod<?>> calls = new ArrayList<>();
    private final ArrayDeque<TelegramApiException> failures = new ArrayDeque<>();
    private final TelegramClient client = (TelegramClient) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {TelegramClient.class}, (proxy, method, args) -> {
                if (!method.getName().equals("execute") || !(args[0] instanceof BotApiMethod<?> call)) {
                    throw new UnsupportedOperationException(method.toString());
                }
                calls.add(call);
                TelegramApiException failure = failures.pollFirst();
                if (failure != null) {
                    throw failure;
                }
                return call instanceof SendChatAction ? Boolean.TRUE : null;
            });
    private final Pacer pacer = new Pacer(TelegramSettings.Pacing.DEFAULTS);
    private final List<String> rateLimits = new ArrayList<>();
    private final TelegramSender sender = new TelegramSender(client, pacer, time, time, () -> rateLimits.add("429"));

    private static TelegramApiRequestException apiError(int code, String description, Integer retryAfter) {
        return new TelegramApiRequestException("Error executing query", ApiResponse.builder().ok(false).errorCode(code)
                .errorDescription(description).parameters(retryAfter == null ? null : new ResponseParameters(null, retryAfter))
                .build());
    }

    private List<SendMessage> sentMessages() {
        return calls.stream().filter(SendMessage.class::isInstance).map(SendMessage.class::cast).toList();
    }

    @Test
    void replies_answerTheirMessage_evenIfItWasDeleted() throws Exception {
        sender.send(new Route("telegram", "default", "-100", "42", "5"), "hi");
        SendMessage sent = sentMessages().get(0);
        assertEquals("-100", sent.getChatId());
        assertEquals(42, sent.getMessageThreadId());
        assertEquals(5, sent.getReplyParameters().getMessageId());
        assertEquals(Boolean.TRUE, sent.getReplyParameters().getAllowSendingWithoutReply());
    }

    @Test
    void aBurstToOneChat_isPacedAtAboutOnePerSecond() throws Exception {
        for (int i = 0; i < 5; i++) {
            sender.send(DM, "message " + i);
        }
        assertEquals(List.of(Duration.ofSeconds(1), Duration.ofSeconds(1)), time.sleeps(), "three at once, then 1/s");
        assertEquals(5, sentMessages().size());
    }

    @Test
    void rateLimit_waitsRetryAfter_thenSendsTheSameMessage() throws Exception {
        failures.add(apiError(429, "Too Many Requests: retry after 12", 12));
        sender.send(DM, "hello");
        assertEquals(List.of(Duration.ofSeconds(12)), time.sleeps());
        assertEquals(2, sentMessages().size());
        assertEquals("hello", sentMessages().get(1).getText());
        assertEquals(List.of("429"), rateLimits, "the 429 is counted for operators");
    }

    @Test
    void rateLimit_givesUpAfterBoundedRetries() {
        for (int i = 0; i <= TelegramSender.MAX_RATE_LIMIT_RETRIES; i++) {
            failures.add(apiError(429, "Too Many Requests", 3));
        }
        TelegramApiRequestException last = apiError(429, "Too Many Requests", 3);
        failures.addLast(last);
        assertThrows(TelegramApiRequestException.class, () -> sender.send(DM, "hello"));
        assertEquals(TelegramSender.MAX_RATE_LIMIT_RETRIES + 1, sentMessages().size());
    }

    @Test
    void aRateLimitedTypingAction_isCounted_andPausesTheChat() {
        failures.add(apiError(429, "Too Many Requests: retry after 8", 8));
        assertThrows(TelegramApiRequestException.class, () -> sender.typing(DM));
        assertEquals(List.of("429"), rateLimits);
        assertTrue(pacer.coolingDown("101", time.instant()), "no more typing until retry_after has passed");
    }

    @Test
    void typing_isSkippedWhileTheChatWaitsOutA429() throws Exception {
        pacer.retryAfter("101", Duration.ofSeconds(30), time.instant());
        sender.typing(DM);
        sender.typing(new Route("telegram", "default", "102", null, null));
        assertEquals(1, calls.size());
        assertEquals("102", ((SendChatAction) calls.get(0)).getChatId());
    }

    @Test
    void cantParseEntities_resendsThePlainText() throws Exception {
        failures.add(apiError(400, "Bad Request: can't parse entities: unexpected end tag", null));
        sender.send(DM, "**bold** move");
        assertEquals("html", sentMessages().get(0).getParseMode());
        assertEquals(null, sentMessages().get(1).getParseMode());
        assertEquals("**bold** move", sentMessages().get(1).getText());
    }

    @Test
    void otherApiErrors_areNotRetried() {
        TelegramApiRequestException blocked = apiError(403, "Forbidden: bot was blocked by the user", null);
        failures.add(blocked);
        assertSame(blocked, assertThrows(TelegramApiRequestException.class, () -> sender.send(DM, "hi")));
        assertEquals(1, sentMessages().size());
    }

    @Test
    void unreachableServer_isRetriedWithBackoff_butATimeoutIsNot() throws Exception {
        failures.add(new TelegramApiException("Unable to execute", new ConnectException("Connection refused")));
        failures.add(new TelegramApiException("Unable to execute", new ConnectException("Connection refused")));
        sender.send(DM, "hi");
        assertEquals(List.of(Duration.ofSeconds(1), Duration.ofSeconds(2)), time.sleeps());
        assertEquals(3, sentMessages().size());

        // a read timeout may mean the message arrived: sending again could duplicate it
        failures.add(new TelegramApiException("Unable to execute", new SocketTimeoutException("timeout")));
        assertThrows(TelegramApiException.class, () -> sender.send(DM, "maybe sent"));
        assertEquals(4, sentMessages().size());
    }

    @Test
    void textOverTheLimit_isRefusedBeforeAnythingIsSent_theOutboxIsTheOnlyChunker() throws Exception {
        // splitting moved to the outbox: OutboundTest.wordsOverTheLimit_areSplitByTheOutbox_intoThreeMessages
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> sender.send(DM, "word ".repeat(2000)));
        assertEquals("a Telegram message holds at most 4096 characters, got 10000 (the outbox chunks replies)",
                e.getMessage());
        assertEquals(List.of(), calls, "nothing was sent");
        sender.send(DM, "x".repeat(TelegramSender.MAX_LENGTH));
        assertEquals(1, sentMessages().size(), "a text of exactly the limit goes as one message");
    }
}
