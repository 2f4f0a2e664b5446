package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import dev.laneway.core.Disposition;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueOverride;
import dev.laneway.core.SessionKey;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.store.InMemoryJournal;
import dev.laneway.core.store.JournalEntry;
import dev.laneway.core.testing.GatewayHarness;
import dev.laneway.core.testing.LogCapture;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What a shutdown does with messages that arrive while it lets runs finish: the channels are asked
 * to stop fetching first, and what still arrives is journaled and kept for the next start, never
 * refused with the busy reply (which was lost or came too late, and the message with it). And a
 * reply cut off by the shutdown is logged as what it is: kept, not lost.
 */
class ShutdownArrivalsTest {

    private final InMemoryJournal journal = new InMemoryJournal();

    private GatewayHarness start(ManualTime time) {
        return new GatewayHarness(s -> s, CommandHandler.NONE, journal, time);
    }

    private static CompletableFuture<Boolean> shutdownInBackground(GatewayHarness h, Duration grace) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return h.gateway.shutdown(grace);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private List<String> pendingIds() {
        return journal.pending().stream().map(JournalEntry::message).map(m -> m.platformMessageId()).toList();
    }

    @Test
    void messagesArrivingDuringTheGracePeriod_areJournaledPending_notRefused_andRunOnceAfterTheRestart()
            throws Exception {
        GatewayHarness before = start(new ManualTime());
        String running = before.dm("running");
        before.gateway.setSessionOverride(SessionKey.of("test:dm:user"), QueueOverride.mode(QueueMode.FOLLOWUP));
        String queued = before.dm("queued");
        CompletableFuture<Boolean> stopped = shutdownInBackground(before, Duration.ofSeconds(30));
        awaitTrue("the shutdown to begin", () -> before.gateway.shuttingDown() && before.channel.receivingStopped());
        assertFalse(stopped.isDone(), "the active run still has its grace period");

        String late = before.dm("late");
        String lateElsewhere = before.send(before.message("late elsewhere").chatId("other").senderId("bob"));
        assertEquals(List.of(), before.channel.texts(), "nobody is told to come back later");
        assertEquals(1, before.agent.runs().size(), "nothing new runs during the shutdown");
        assertEquals(List.of(queued, late, lateElsewhere), pendingIds().subList(1, 4), "journaled, in arrival order");
        assertEquals(0, before.dispositions.count(Disposition.REJECTED_BUSY));
        assertTrue(before.channel.progress().containsAll(List.of("accepted " + late, "accepted " + lateElsewhere)),
                "the channel hears they were taken (Slack's 👀), as for any accepted message");

        before.agent.run(0).complete("done");
        assertTrue(stopped.get(10, TimeUnit.SECONDS));
        assertEquals(Disposition.RAN, before.dispositions.of(running));
        assertEquals(List.of(queued, late, lateElsewhere), pendingIds());

        GatewayHarness after = start(new ManualTime(before.time.instant().plusSeconds(20)));
        for (int round = 0; round < 5; round++) {
            after.agent.openRuns().forEach(run -> run.complete("answer to " + run.prompt()));
            after.advance(Duration.ofSeconds(5)); // past any drain debounce
        }
        assertEquals(List.of("queued", "late", "late elsewhere"),
                after.agent.prompts().stream().sorted(java.util.Comparator.comparing(List.of("queued", "late",
                        "late elsewhere")::indexOf)).toList(), "each runs once after the restart");
        assertEquals(List.of("answer to queued", "answer to late"), after.channel.textsTo("chat"), "in order");
        assertEquals(List.of("answer to late elsewhere"), after.channel.textsTo("other"));
        assertEquals(List.of(), journal.pending());
    }

    /** Waits (bounded) for another thread's step; the engine itself runs on manual time. */
    private static void awaitTrue(String what, java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.onSpinWait();
        }
    }

    @Test
    void withoutAJournal_thereIsNoNextStartToKeepThemFor_soLateMessagesStillGetTheBusyReply() throws Exception {
        GatewayHarness h = new GatewayHarness();
        h.dm("running");
        CompletableFuture<Boolean> stopped = shutdownInBackground(h, Duration.ofSeconds(30));
        awaitTrue("the shutdown to begin", h.gateway::shuttingDown);
        String late = h.dm("late");
        assertEquals(Disposition.REJECTED_BUSY, h.dispositions.of(late));
        assertTrue(h.channel.texts().get(0).startsWith("⏳ Busy right now."), h.channel.texts().toString());
        h.agent.run(0).complete("done");
        assertTrue(stopped.get(10, TimeUnit.SECONDS));
    }

    @Test
    void aSendCutOffByTheShutdown_isLoggedAsKept_notAsLost_andItsMessageIsAnsweredAfterTheRestart() throws Exception {
        GatewayHarness before = start(new ManualTime());
        before.channel.onSend(text -> {
            // the gateway shuts down while this send is under way, and the channel stops under it
            try {
                before.gateway.shutdown(Duration.ZERO, Duration.ZERO);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            throw new IllegalStateException("the channel was stopped");
        });
        before.outbox.pause();
        before.dm("hello");
        before.agent.run(0).complete("hi");
        try (LogCapture log = LogCapture.of(Outbox.class)) {
            before.outbox.resume();
            assertEquals(List.of(), log.messages(Level.ERROR), "nothing is lost");
            assertEquals(1, log.warnings().size(), log.lines().toString());
            assertTrue(log.warnings().get(0).startsWith("send to test chat chat was cut off by the shutdown"),
                    log.warnings().get(0));
            assertTrue(log.warnings().get(0).endsWith("the message it answers stays pending and is answered after the"
                    + " restart"), log.warnings().get(0));
        }
        assertEquals(1, journal.pending().size(), "its answered record was never written");

        GatewayHarness after = start(new ManualTime(before.time.instant().plusSeconds(20)));
        after.agent.run(0).complete("hi");
        assertEquals(List.of("hi"), after.channel.texts());
        assertEquals(List.of(), journal.pending());
    }

    @Test
    void aSendThatFailsOutsideAShutdown_isStillReportedAtError_andItsMessageStaysPending() {
        GatewayHarness h = start(new ManualTime());
        h.channel.failSends(true);
        try (LogCapture log = LogCapture.of(Outbox.class)) {
            h.dm("hello");
            h.agent.run(0).complete("hi");
            assertEquals(List.of("send to test chat chat failed: refused: java.lang.IllegalStateException: the platform"
                    + " refused the message; the rest of the reply is not sent, and the message it answers stays"
                    + " pending: it runs again after a restart"), log.messages(Level.ERROR));
        }
    }
}
