package dev.laneway.channels.telegram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.testing.Await;
import dev.laneway.core.testing.LogCapture;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What happens to a reply the Bot API does not take at once: a 5xx or a proxy's error page is sent
 * again after a backoff (once, not twice), and nothing the server says about the token reaches the
 * log.
 */
class DeliveryFailureTest {

    /** Skips the outbox's backoff (about a second, with jitter) once its timer is set. */
    private static void skipTheBackoff(Rig rig) {
        Await.until("the retry timer", () -> rig.time.pendingDelays().stream()
                .anyMatch(d -> d.compareTo(Duration.ofMillis(800)) >= 0 && d.compareTo(Duration.ofSeconds(1)) <= 0));
        rig.time.advance(Duration.ofSeconds(1));
    }

    @Test
    void aServerErrorOnce_isSentAgain_once_andTheMessageCountsAsAnswered() throws Exception {
        try (Rig rig = Rig.with().agent(new EchoAgent()).start()) {
            rig.api.failNextSend(500, "Internal Server Error");
            rig.api.dm(Tg.ANN, "hello");
            Await.until("the failed attempt", () -> rig.api.calls("sendMessage").size() == 1);
            assertEquals(List.of(), rig.api.sentTo(Tg.ANN.id()));
            skipTheBackoff(rig);

            Await.until("the answer", () -> rig.api.sentTo(Tg.ANN.id()).size() == 1);
            Await.until("the answered record", () -> Boolean.TRUE.equals(rig.journal.answered(1)));
            assertEquals(List.of("echo: hello"), rig.api.textsTo(Tg.ANN.id()));
            assertEquals(2, rig.api.calls("sendMessage").size(), "one 500, one success");
            assertEquals(List.of(), rig.failedSends);
        }
    }

    @Test
    void aProxyErrorPageOnce_isSentAgain_once() throws Exception {
        try (Rig rig = Rig.with().agent(new EchoAgent()).start()) {
            rig.api.failNextSendWithPage(502, "<html><body><h1>502 Bad Gateway</h1></body></html>");
            rig.api.dm(Tg.ANN, "hello");
            Await.until("the failed attempt", () -> rig.api.calls("sendMessage").size() == 1);
            skipTheBackoff(rig);

            Await.until("the answer", () -> rig.api.sentTo(Tg.ANN.id()).size() == 1);
            Await.until("the answered record", () -> Boolean.TRUE.equals(rig.journal.answered(1)));
            assertEquals(List.of("echo: hello"), rig.api.textsTo(Tg.ANN.id()));
        }
    }

    /**
     * A reply went, and the connection dropped before Telegram's answer came back: it is not sent
     * again, and the message counts as answered (docs/behaviour.md §9.6, docs/decisions.md D249).
     * Before D249 it was either sent again at once by OkHttp (its retry on a failed connection, when
     * the connection had carried a call before) or refused, and its message run again after a restart.
     */
    @Test
    void anAnswerCutOffOnTheWayBack_isNotSentAgain_andTheMessageCountsAsAnswered() throws Exception {
        try (Rig rig = Rig.with().agent(new EchoAgent()).start()) {
            rig.api.cutOffNextSendAnswer();
            rig.api.dm(Tg.ANN, "hello");
            Await.until("the answered record", () -> Boolean.TRUE.equals(rig.journal.answered(1)));
            rig.awaitQuiet();

            assertEquals(List.of("echo: hello"), rig.api.textsTo(Tg.ANN.id()));
            assertEquals(1, rig.api.calls("sendMessage").size(), "sent once");
            assertEquals(List.of(), rig.failedSends);
        }
    }

    /**
     * The same over a kept-alive connection that has carried calls (getMe and setMyCommands at start;
     * a command's answer has no typing action running beside it, so it takes that connection): that
     * is where OkHttp retried a call whose answer was cut off, after its request had gone out, and the
     * user saw the answer twice. Its client no longer repeats a call that went out (D249).
     */
    @Test
    void anAnswerCutOffOnAKeptAliveConnection_isNotSentAgainByTheHttpClient() throws Exception {
        try (Rig rig = Rig.with().agent(new EchoAgent()).start()) {
            rig.api.cutOffNextSendAnswer();
            rig.api.dm(Tg.ANN, "/status");
            Await.until("the command's answer handled", () -> rig.outboxSends.size() + rig.failedSends.size() >= 1);
            rig.awaitQuiet();

            assertEquals(1, rig.api.calls("sendMessage").size(), "sent once: " + rig.api.textsTo(Tg.ANN.id()));
            assertEquals(List.of("telegram"), rig.outboxSends, "counts as sent: it may well have arrived");
            assertEquals(List.of(), rig.failedSends);
        }
    }

    /**
     * What {@code LongPollingTest} once met: the server takes the reply and goes away before it
     * answers. OkHttp's next attempt finds the port closed; that refused connection does not make
     * the reply one that never left, so the outbox does not send it again once the server is back
     * (D249).
     */
    @Test
    void aServerGoingAwayBeforeItAnswers_doesNotGetTheReplyAgainWhenItIsBack() throws Exception {
        try (Rig rig = Rig.with().agent(new EchoAgent()).start()) {
            rig.api.goAwayBeforeNextSendAnswer();
            rig.api.dm(Tg.ANN, "before");
            Await.until("the reply taken and the server gone", () -> rig.api.sentTo(Tg.ANN.id()).size() == 1
                    && rig.api.away());
            // counted as sent while the server is still away: it may well have arrived (before D249 it
            // was taken for a send that never left and waited for a retry, which came once the server was back)
            Await.until("the send counted as sent", () -> rig.outboxSends.size() == 1);
            rig.api.comeBack();
            Await.until("the answered record", () -> Boolean.TRUE.equals(rig.journal.answered(1)));
            rig.awaitQuiet();

            assertEquals(List.of("echo: before"), rig.api.textsTo(Tg.ANN.id()));
            assertEquals(1, rig.api.calls("sendMessage").size(), "sent once");
            assertEquals(List.of(), rig.failedSends);
        }
    }

    /**
     * After the server restarted, the kept-alive connections it closed are not taken for a send
     * (SendOnce checks one before a request is written on it): the reply goes on a new connection,
     * once, rather than failing on a dead one and counting as "may have arrived" (D249).
     */
    @Test
    void aKeptAliveConnectionTheServerClosed_isNotTakenForASend() throws Exception {
        try (Rig rig = Rig.with().agent(new EchoAgent()).start()) {
            rig.api.dm(Tg.ANN, "hello");
            Await.until("the first answered record", () -> Boolean.TRUE.equals(rig.journal.answered(1)));
            rig.awaitQuiet();
            rig.api.goAway();
            rig.api.comeBack();

            rig.api.dm(Tg.ANN, "again");
            Await.until("the second answered record", () -> Boolean.TRUE.equals(rig.journal.answered(2)));
            rig.awaitQuiet();
            assertEquals(List.of("echo: hello", "echo: again"), rig.api.textsTo(Tg.ANN.id()));
            assertEquals(2, rig.api.calls("sendMessage").size());
            assertEquals(List.of(), rig.failedSends);
        }
    }

    @Test
    void aRefusedReply_leavesItsMessagePending_andAnErrorThatEchoesTheTokenNeverReachesTheLog() throws Exception {
        String secret = FakeBotApi.TOKEN.substring(FakeBotApi.TOKEN.indexOf(':') + 1);
        try (LogCapture log = LogCapture.all(); Rig rig = Rig.with().agent(new EchoAgent()).start()) {
            rig.api.failNextSend(400, "Bad Request: chat not found (token " + FakeBotApi.TOKEN + ")");
            rig.api.dm(Tg.ANN, "hello");
            Await.until("the failure", () -> rig.failedSends.size() == 1);
            rig.awaitQuiet();

            assertEquals(1, rig.journal.pending().size(), "not answered: it runs again after a restart");
            assertTrue(log.lines().stream().anyMatch(line -> line.mentions("chat not found")
                    && line.mentions("stays pending")), log.lines().toString());
            assertTrue(log.lines().stream().noneMatch(line -> line.mentions(secret)), "the token was logged");
        }
    }
}
