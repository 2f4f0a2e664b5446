package dev.laneway.channels.telegram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import dev.laneway.core.store.InMemoryJournal;
import dev.laneway.core.testing.Await;
import dev.laneway.core.testing.LogCapture;
import dev.laneway.core.testing.ScriptedAgent;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A gateway shutdown with the real SDK against the fake Bot API: polling stops first, so what users
 * send during the grace period stays on the server, unconfirmed, and is answered once after the
 * restart; and a clean stop logs nothing above INFO.
 */
class ShutdownTest {

    private static int dm(FakeBotApi api, Tg.Person from, String text) {
        return api.push("message", Tg.message(api.nextMessageId(), Tg.privateChat(from), from, text));
    }

    @Test
    void pollingStopsFirst_soUpdatesSentDuringTheGracePeriodStayOnTheServer_andAreAnsweredOnceAfterTheRestart()
            throws Exception {
        InMemoryJournal journal = new InMemoryJournal();
        try (FakeBotApi api = FakeBotApi.start()) {
            try (Rig first = Rig.with().api(api).journal(journal).start()) {
                int slow = dm(api, Tg.ANN, "slow");
                ScriptedAgent.ScriptedRun run = first.run(0);
                api.polls().awaitOffsetPast(slow);   // handed over (journaled) and confirmed

                CompletableFuture<Boolean> stopped = CompletableFuture.supplyAsync(() -> {
                    try {
                        return first.gateway.shutdown(Duration.ofSeconds(20));
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                });
                Await.until("the channel to stop polling at the start of the shutdown", () -> !first.channel.connected());
                int pollsAtStop = api.polls().count();
                int fromAnn = dm(api, Tg.ANN, "during the grace period");
                int fromBob = dm(api, Tg.BOB, "me too");

                run.complete("answer to slow");
                assertTrue(stopped.get(20, TimeUnit.SECONDS), "the run finished within the grace period");
                assertEquals(pollsAtStop, api.polls().count(), "no getUpdates once the channel stopped receiving");
                assertTrue(api.confirmedUpTo() < Math.min(fromAnn, fromBob), "nothing sent during the grace period "
                        + "is confirmed (confirmed up to " + api.confirmedUpTo() + ")");
                assertEquals(List.of("answer to slow"), api.textsTo(Tg.ANN.id()), "nobody is told to come back later");
                assertEquals(List.of(), api.textsTo(Tg.BOB.id()));
                assertEquals(List.of(), journal.pending());
            }

            try (Rig second = Rig.with().api(api).journal(journal).start()) {
                ScriptedAgent.ScriptedRun a = second.run(0);
                ScriptedAgent.ScriptedRun b = second.run(1);
                a.complete("answer to " + a.prompt());
                b.complete("answer to " + b.prompt());
                Await.until("both answers", () -> api.sent().size() == 3);
                second.awaitQuiet();
                assertEquals(List.of("answer to slow", "answer to during the grace period"), api.textsTo(Tg.ANN.id()));
                assertEquals(List.of("answer to me too"), api.textsTo(Tg.BOB.id()));
                assertEquals(2, second.scripted().runs().size(), "each once; the answered one not again");
                Await.until("both recorded as answered (behind their replies)", () -> journal.pending().isEmpty());
            }
        }
    }

    @Test
    void aCleanStop_logsNothingAboveInfo() throws Exception {
        try (LogCapture sdk = LogCapture.of("org.telegram");
             LogCapture channel = LogCapture.of("dev.laneway.channels.telegram")) {
            try (Rig rig = Rig.with().agent(new EchoAgent()).start()) {
                rig.api.dm(Tg.ANN, "hello");
                Await.until("the reply", () -> rig.api.sentTo(Tg.ANN.id()).size() == 1);
                rig.awaitQuiet();   // a getUpdates is held open by the server now: the stop cuts it off
            }
            for (LogCapture log : List.of(sdk, channel)) {
                List<LogCapture.Line> loud = log.lines().stream()
                        .filter(line -> line.level().isGreaterOrEqual(Level.WARN)).toList();
                assertEquals(List.of(), loud);
            }
            assertTrue(channel.messages(Level.INFO).contains("telegram: polling stopped"), channel.lines().toString());
        }
    }
}
