package dev.laneway.channels.telegram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.laneway.config.Secret;
import dev.laneway.core.Disposition;
import dev.laneway.core.testing.Await;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.telegram.telegrambots.meta.exceptions.TelegramApiException;

/** The long-polling session: outages, restarts, offsets, start-up failures. */
class LongPollingTest {

    @Test
    void serverGoingAwayForAFewSeconds_pollingRecoversAndNothingIsLostOrRepeated() throws Exception {
        EchoAgent echo = new EchoAgent();
        try (Rig rig = Rig.with().agent(echo).start()) {
            rig.api.dm(Tg.ANN, "before");
            Await.until("the first reply", () -> rig.api.sentTo(Tg.ANN.id()).size() == 1);
            // and the bot got the server's answer to it, which is when the journal records the message
            // answered (the outbox delivered it). Its disposition is recorded when its run ends, which may
            // be before that, and the fake server counts a reply as sent before it writes the answer: an
            // outage in between cuts the answer off, which is DeliveryFailureTest's
            // aServerGoingAwayBeforeItAnswers_... (it once made OkHttp and the outbox send the reply
            // again; docs/decisions.md D249). Not what this tests
            Await.until("the first message's answered record", () -> Boolean.TRUE.equals(rig.journal.answered(1)));

            rig.api.goAway();
            Await.until("the channel notices", () -> !rig.channel.connected());
            rig.api.dm(Tg.ANN, "during the outage");
            // an outage long enough for the backoff to reach its cap (waits of 50, 100, 200, 400, 400 ms)
            Await.until("five failed polls", () -> rig.channel.failedPolls() >= 5);
            rig.api.comeBack();

            Await.until("the reply after the outage", () -> rig.api.sentTo(Tg.ANN.id()).size() == 2);
            Await.until("healthy again", rig.channel::connected);
            rig.api.dm(Tg.ANN, "after");
            Await.until("the third reply", () -> rig.api.sentTo(Tg.ANN.id()).size() == 3);
            rig.awaitQuiet();
            assertEquals(List.of("before", "during the outage", "after"), echo.prompts());
            assertEquals(List.of("echo: before", "echo: during the outage", "echo: after"), rig.api.textsTo(Tg.ANN.id()));
        }
    }

    @Test
    void updatesDeliveredAgain_areNotProcessedTwice() throws Exception {
        EchoAgent echo = new EchoAgent();
        try (Rig rig = Rig.with().agent(echo).start()) {
            rig.api.dm(Tg.ANN, "once");
            Await.until("the reply", () -> rig.api.sentTo(Tg.ANN.id()).size() == 1);

            // a restart of the channel starts a new polling session at offset 0, and a server that lost its
            // confirmations hands every update out again
            rig.channel.stop();
            rig.api.forgetConfirmations();
            rig.channel.start(rig.gateway);
            rig.api.dm(Tg.ANN, "twice?");
            Await.until("the new reply", () -> rig.api.sentTo(Tg.ANN.id()).size() == 2);
            rig.awaitQuiet();     // the redelivered "once" has been through the handler too

            assertEquals(List.of("once", "twice?"), echo.prompts());
            assertEquals(0, rig.dispositions.count(Disposition.DUPLICATE), "the channel filtered them, not the gateway");
            Await.until("both dispositions", () -> rig.dispositions.size() >= 2);
            assertEquals(2, rig.dispositions.size());
        }
    }

    @Test
    void offsets_confirmEachBatch_andAnIdleSessionHoldsInsteadOfSpinning() throws Exception {
        try (Rig rig = Rig.with().agent(new EchoAgent()).start()) {
            rig.api.dm(Tg.ANN, "one");
            Await.until("the reply", () -> rig.api.sentTo(Tg.ANN.id()).size() == 1);
            int update = rig.api.push("message", Tg.message(rig.api.nextMessageId(), Tg.privateChat(Tg.ANN), Tg.ANN, "two"));
            Await.until("the second reply", () -> rig.api.sentTo(Tg.ANN.id()).size() == 2);
            int confirming = rig.api.polls().awaitOffsetPast(update);
            assertEquals(update + 1, rig.api.polls().await(confirming).offset(), "a poll that confirms it");
            JsonNode poll = rig.api.polls().await(0).body();
            assertEquals(1, poll.path("timeout").asInt(), "long polling: the server holds the call");
            assertEquals("message", poll.path("allowed_updates").get(0).asText());
            assertEquals(1, poll.path("allowed_updates").size(), "edits and other update kinds are not even fetched");

            // nothing is pending now: the server holds that poll for its 1 s timeout, and the poller
            // waits for the answer instead of asking again
            PollLog.Poll idle = rig.api.polls().await(confirming);
            PollLog.Poll next = rig.api.polls().await(confirming + 1);
            Duration gap = idle.before(next);
            assertTrue(gap.compareTo(Duration.ofMillis(900)) >= 0, "an idle poller waits on the server's hold; "
                    + "it asked again after " + gap.toMillis() + " ms");
            assertEquals(0, rig.channel.failedPolls(), "the held poll was answered, not cut off");
        }
    }

    @Test
    void wrongToken_failsStartWithAMessageThatNamesTheSettingButNotTheToken() throws Exception {
        try (FakeBotApi api = FakeBotApi.start()) {
            String wrong = "1:this-is-not-the-token";
            TelegramChannel channel = new TelegramChannel(TelegramSettings.of(new Secret(wrong), api.url()));
            TelegramApiException e = assertThrows(TelegramApiException.class, () -> channel.start(message -> { }));
            assertTrue(e.getMessage().contains("TELEGRAM_BOT_TOKEN"), e.getMessage());
            assertFalse(e.getMessage().contains(wrong), e.getMessage());
            assertFalse(channel.connected());
            channel.stop();
        }
    }

    @Test
    void unreachableServer_failsStartClearly() throws Exception {
        FakeBotApi api = FakeBotApi.start();
        api.close();
        TelegramChannel channel = new TelegramChannel(TelegramSettings.of(new Secret(FakeBotApi.TOKEN), api.url())
                .withPollTimeout(Duration.ofSeconds(1)));
        TelegramApiException e = assertThrows(TelegramApiException.class, () -> channel.start(message -> { }));
        assertTrue(e.getMessage().contains("cannot reach the Bot API at " + api.url()), e.getMessage());
        assertFalse(e.getMessage().contains(FakeBotApi.TOKEN), e.getMessage());
    }
}
