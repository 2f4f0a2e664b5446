package dev.laneway.channels.telegram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Route;
import dev.laneway.core.channel.ChatPacer;
import dev.laneway.core.channel.SendFailure;
import dev.laneway.core.testing.ManualTime;
import java.io.IOException;
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

/**
 * One send, and what the outbox is told when it fails (the waiting and retrying are the outbox's:
 * gateway-core's OutboxRetryTest); the pace it is given. No test here sleeps.
 */
class TelegramSenderTest {

    private static final String TOKEN = "424242:fake-secret-token";
    private static final Route DM = new Route("telegram", "default", "101", null, "5");
    private final ManualTime time = new ManualTime();
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
    private final TelegramSettings.Pacing pacing = TelegramSettings.Pacing.DEFAULTS;
    private final ChatPacer pacer = new ChatPacer(new ChatPacer.Limits(pacing.chatInterval(), pacing.chatBurst(),
            pacing.groupMax(), pacing.groupWindow()));
    private final List<String> rateLimits = new ArrayList<>();
    private final TelegramSender sender = new TelegramSender(client, pacer, time, TelegramChannel.redactorFor(TOKEN),
            () -> rateLimits.add("429"));

    private static TelegramApiRequestException apiError(int code, String description, Integer retryAfter) {
        return new TelegramApiRequestException("Error executing query", ApiResponse.builder().ok(false).errorCode(code)
                .errorDescription(description).parameters(retryAfter == null ? null : new ResponseParameters(null, retryAfter))
                .build());
    }

    private List<SendMessage> sentMessages() {
        return calls.stream().filter(SendMessage.class::isInstance).map(SendMessage.class::cast).toList();
    }

    private SendFailure failedSend(String text) {
        return assertThrows(SendFailure.class, () -> sender.send(DM, text));
    }

    @Test
    void theReplyReaderIsBuiltAtStart_fromAnAnswerTheSdkAccepts() {
        // D225: a canned answer the SDK refused (a message dated 0 reads as inaccessible) built nothing
        assertTrue(TelegramSender.warmReplyReader());
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
    void aBurstToOneChat_isPacedAtAboutOnePerSecond() {
        List<Duration> waits = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            waits.add(sender.pace(DM));
        }
        assertEquals(List.of(Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(2)),
                waits, "three at once, then 1/s");
        assertEquals(Duration.ZERO, sender.pace(new Route("telegram", "default", "102", null, null)),
                "another chat is not held up");
    }

    @Test
    void aGroup_isPacedAtTwentyPerMinute() {
        Route group = new Route("telegram", "default", "-100", null, null);
        Duration last = Duration.ZERO;
        for (int i = 0; i < 21; i++) {
            last = sender.pace(group);
        }
        assertEquals(Duration.ofMinutes(1), last, "the 21st waits for the first to leave the window");
    }

    @Test
    void rateLimit_tellsTheOutboxToWaitRetryAfter_andIsCounted() {
        failures.add(apiError(429, "Too Many Requests: retry after 12", 12));
        SendFailure failure = failedSend("hello");
        assertEquals(SendFailure.Kind.RATE_LIMITED, failure.kind());
        assertEquals(Duration.ofSeconds(12), failure.retryAfter());
        assertEquals(1, sentMessages().size(), "sent once: the outbox sends it again when the wait is over");
        assertEquals(List.of("429"), rateLimits, "the 429 is counted for operators");
    }

    @Test
    void aRateLimitedTypingAction_isCounted_andPausesTheChat() {
        failures.add(apiError(429, "Too Many Requests: retry after 8", 8));
        SendFailure failure = assertThrows(SendFailure.class, () -> sender.typing(DM));
        assertEquals(SendFailure.Kind.RATE_LIMITED, failure.kind());
        assertEquals(Duration.ofSeconds(8), failure.retryAfter());
        assertEquals(List.of("429"), rateLimits);
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
    void otherApiErrors_areRefused_notRetried() {
        failures.add(apiError(403, "Forbidden: bot was blocked by the user", null));
        SendFailure failure = failedSend("hi");
        assertEquals(SendFailure.Kind.REFUSED, failure.kind());
        assertTrue(failure.getMessage().contains("bot was blocked"), failure.getMessage());
        assertEquals(1, sentMessages().size());
    }

    @Test
    void serverErrors_andUnreadableReplies_areTriedAgain() {
        failures.add(apiError(502, "Bad Gateway", null));
        assertEquals(SendFailure.Kind.UNAVAILABLE, failedSend("hi").kind());
        failures.add(new TelegramApiRequestException("Unable to deserialize response",
                new IOException("Unexpected character ('<' (code 60))")));
        assertEquals(SendFailure.Kind.UNAVAILABLE, failedSend("hi").kind());
    }

    @Test
    void unreachableServer_isTriedAgain_butATimeoutMayHaveDelivered() {
        failures.add(new TelegramApiException("Unable to execute", new ConnectException("Connection refused")));
        assertEquals(SendFailure.Kind.UNAVAILABLE, failedSend("hi").kind());

        // a read timeout may mean the message arrived: sending again could duplicate it
        failures.add(new TelegramApiException("Unable to execute", new SocketTimeoutException("timeout")));
        assertEquals(SendFailure.Kind.OUTCOME_UNKNOWN, failedSend("maybe sent").kind());

        // so may a call whose connection failed once its request was being sent, whatever OkHttp's next
        // attempt then met (SendOnce, D249): a refused connection in it does not make it "never sent"
        failures.add(new TelegramApiException("Unable to execute", new SendOnce.MayHaveArrived(
                new ConnectException("Connection refused"))));
        assertEquals(SendFailure.Kind.OUTCOME_UNKNOWN, failedSend("maybe sent").kind());
    }

    @Test
    void anErrorThatEchoesTheToken_isRedacted() {
        failures.add(apiError(400, "Bad Request: token " + TOKEN + " is not allowed in /bot" + TOKEN + "/sendMessage", null));
        SendFailure failure = failedSend("hi");
        assertFalse(failure.getMessage().contains("fake-secret-token"), failure.getMessage());
        assertTrue(failure.getMessage().contains("***"), failure.getMessage());
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
