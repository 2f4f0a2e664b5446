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
