package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueOverride;
import dev.laneway.core.SessionKey;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.store.InMemoryJournal;
import dev.laneway.core.testing.ForwardingJournal;
import dev.laneway.core.testing.GatewayHarness;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** A restart or a crash loses no accepted message and answers nothing twice (docs/behaviour.md §9). */
class DurabilityTest {

    private final InMemoryJournal journal = new InMemoryJournal();

    private GatewayHarness start(ManualTime time) {
        return new GatewayHarness(s -> s, CommandHandler.NONE, journal, time);
    }

    @Test
    void aCrashDuringABurst_rerunsTheInFlightMessage_thenTheQueuedOnes_eachOnce() {
        GatewayHarness before = start(new ManualTime());
        String run = before.dm("in flight");
        before.dm("queued a");
        before.dm("queued b");
        assertEquals(3, journal.pending().size(), "all three are durable before the crash");
        // crash: `before` is dropped without finishing anything

        GatewayHarness after = start(new ManualTime(before.time.instant().plusSeconds(30)));
        assertEquals(List.of("in flight"), after.agent.prompts(), "the in-flight run runs again (at-least-once)");
        after.agent.run(0).complete("answer 1");
        after.advanceMillis(1000);
        assertTrue(after.agent.run(1).prompt().contains("queued a") && after.agent.run(1).prompt().contains("queued b"),
                "queued messages run in their original order and mode (collect)");
        after.agent.run(1).complete("answer 2");
        assertEquals(List.of(), journal.pending());
        assertEquals(Disposition.RAN, after.dispositions.of(run));
    }

    @Test
    void aMessageCountsAsAnswered_onlyOnceItsAnswerWasSent() {
        GatewayHarness gateway = start(new ManualTime());
        String id = gateway.dm("hello");
        gateway.outbox.pause();
        gateway.agent.run(0).complete("hi");
        assertEquals(List.of(), gateway.channel.texts(), "the answer is queued, not sent yet");
        assertEquals(Disposition.RAN, gateway.dispositions.of(id), "the run itself is over");
        assertEquals(1, journal.pending().size(), "not recorded as answered before the answer went out");

        gateway.outbox.resume();
        assertEquals(List.of("hi"), gateway.channel.texts());
        assertEquals(List.of(), journal.pending());
    }

    @Test
    void aCrashBetweenTheEndOfARunAndTheSendingOfItsAnswer_runsTheMessageAgain() {
        GatewayHarness before = start(new ManualTime());
        before.dm("hello");
        before.outbox.pause();
        before.agent.run(0).complete("hi");
        // crash: the answer never left the outbox

        GatewayHarness after = start(new ManualTime(before.time.instant().plusSeconds(30)));
        assertEquals(List.of("hello"), after.agent.prompts(), "nothing the user sent is lost");
        after.agent.run(0).complete("hi");
        assertEquals(List.of("hi"), after.channel.texts());
        assertEquals(List.of(), journal.pending());
    }

    @Test
    void anAnsweredMessage_isNeverAnsweredAgain_evenWhenThePlatformRedeliversIt() {
        GatewayHarness before = start(new ManualTime());
        InboundMessage message = before.message("hello").receivedAt(before.time.instant()).build();
        before.gateway.accept(message);
        before.agent.run(0).complete("hi");
        assertEquals(List.of(), journal.pending());

        GatewayHarness after = start(new ManualTime(before.time.instant().plus(Duration.ofMinutes(30))));
        assertTrue(after.agent.runs().isEmpty(), "nothing to restore");
        after.gateway.accept(message);
        assertTrue(after.agent.runs().isEmpty());
        assertEquals(Disposition.DUPLICATE, after.dispositions.of(message.platformMessageId()));
    }

    @Test
    void aRedeliveryOfAMessageRestoredFromTheJournal_isADuplicate() {
        GatewayHarness before = start(new ManualTime());
        InboundMessage message = before.message("hello").receivedAt(before.time.instant()).build();
        before.gateway.accept(message);
        GatewayHarness after = start(new ManualTime(before.time.instant().plusSeconds(5)));
        after.gateway.accept(message);
        assertEquals(1, after.agent.runs().size());
        assertEquals(Disposition.DUPLICATE, after.dispositions.entries().get(0).disposition());
    }

    @Test
    void queuedMessagesOlderThanTheTtl_areDroppedWithOneNoticePerSender() {
        GatewayHarness before = start(new ManualTime());
        before.dm("in flight");
        String old1 = before.dm("old one");
        String old2 = before.dm("old two");
        GatewayHarness after = start(new ManualTime(before.time.instant().plus(Duration.ofHours(2))));
        assertTrue(after.agent.runs().isEmpty(), "nothing older than the 1 h ttl runs");
        assertEquals(Disposition.EXPIRED, after.dispositions.of(old1));
        assertEquals(Disposition.EXPIRED, after.dispositions.of(old2));
        assertEquals(List.of("⚠️ Skipped: this message waited longer than 1 h while the gateway was down."
                + " Please resend it if it still matters."), after.channel.texts());
        assertEquals(List.of(), journal.pending());
    }

    @Test
    void expiryNotices_areSentOncePerSender_tellingApartTheSameIdOnTwoAccounts() {
        GatewayHarness before = start(new ManualTime());
        before.send(before.message("to bot a").account("a"));
        before.send(before.message("to bot a, again").account("a"));
        before.send(before.message("to bot b").account("b"));
        GatewayHarness after = start(new ManualTime(before.time.instant().plus(Duration.ofHours(2))));
        assertEquals(List.of("a", "b"), after.channel.sent().stream().map(sent -> sent.route().account()).toList(),
                "one notice to each bot's user, though chat and sender ids are the same");
        assertEquals(List.of(), journal.pending());
    }

    @Test
    void gracefulShutdown_letsTheActiveRunFinish_andKeepsQueuedMessagesForTheRestart() throws Exception {
        GatewayHarness before = start(new ManualTime());
        String running = before.dm("running");
        before.gateway.setSessionOverride(SessionKey.of("test:dm:user"), QueueOverride.mode(QueueMode.FOLLOWUP));
        String queued = before.dm("queued");
        CompletableFuture<Boolean> stopped = CompletableFuture.supplyAsync(() -> {
            try {
                return before.gateway.shutdown(Duration.ofSeconds(30));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        before.agent.run(0).complete("done");
        assertTrue(stopped.get());
        before.advance(Duration.ofSeconds(10));
        assertEquals(1, before.agent.runs().size(), "no new run starts during shutdown");
        assertEquals(Disposition.RAN, before.dispositions.of(running));
        assertEquals(List.of(queued), journal.pending().stream().map(e -> e.message().platformMessageId()).toList());

        GatewayHarness after = start(new ManualTime(before.time.instant().plusSeconds(20)));
        assertEquals(List.of("queued"), after.agent.prompts());
    }

    @Test
    void aRunStillActiveAfterTheGracePeriod_isAborted_andItsMessageRunsAfterTheRestart() throws Exception {
        GatewayHarness before = start(new ManualTime());
        before.dm("slow");
        assertFalse(before.gateway.shutdown(Duration.ZERO));
        assertTrue(before.agent.run(0).abortRequested());
        assertEquals(1, journal.pending().size(), "an aborted run's message stays pending");
        assertEquals(0, before.dispositions.size(), "and is not counted as answered");

        GatewayHarness after = start(new ManualTime(before.time.instant().plusSeconds(20)));
        assertEquals(List.of("slow"), after.agent.prompts());
    }

    @Test
    void anAnswerStillQueuedWhenTheChannelsStop_isNotSent_andItsMessageRunsAgainAfterTheRestart() throws Exception {
        GatewayHarness before = start(new ManualTime());
        before.channel.sendsOnlyOnceStarted();
        before.dm("hello");
        before.outbox.pause(); // the answer waits in the outbox (behind a long retry_after, say)
        before.agent.run(0).complete("hi");
        assertTrue(before.gateway.shutdown(Duration.ZERO, Duration.ZERO), "the run itself had finished");
        assertFalse(before.channel.started(), "the channels are stopped");

        before.outbox.resume(); // the chat's drain goes on after the channels stopped
        assertEquals(List.of(), before.channel.texts(), "nothing is sent to a stopped channel");
        assertEquals(1, journal.pending().size(), "not counted as answered: the user never got the answer");

        GatewayHarness after = start(new ManualTime(before.time.instant().plusSeconds(20)));
        assertEquals(List.of("hello"), after.agent.prompts());
        after.agent.run(0).complete("hi");
        assertEquals(List.of("hi"), after.channel.texts());
        assertEquals(List.of(), journal.pending());
    }

    @Test
    void sequenceNumbersContinueAfterARestart() {
        GatewayHarness before = start(new ManualTime());
        before.dm("one");
        before.agent.run(0).complete();
        long last = journal.lastSequence();
        GatewayHarness after = start(new ManualTime(before.time.instant().plusSeconds(1)));
        after.send(after.message("two").platformMessageId("after-1"));
        assertEquals(last + 1, journal.pending().get(0).seq());
    }

    @Test
    void aJournalThatCannotRecord_refusesTheMessageVisibly_andLosesNothingElse() {
        var failing = new ForwardingJournal(dev.laneway.core.store.MessageJournal.NONE) {
            @Override
            public CompletableFuture<Void> append(dev.laneway.core.store.JournalEntry entry) {
                return CompletableFuture.failedFuture(new java.io.IOException("disk full"));
            }
        };
        GatewayHarness h = new GatewayHarness(s -> s, CommandHandler.NONE, failing, new ManualTime());
        String id = h.dm("hello");
        assertTrue(h.agent.runs().isEmpty());
        assertEquals(Disposition.REJECTED_BUSY, h.dispositions.of(id));
        assertEquals(List.of("⚠️ Sorry, something went wrong while answering. (storage unavailable)"), h.channel.texts());
        assertEquals(0, h.gateway.pendingMessages());
    }

    @Test
    void aRunCutByShutdownAfterItAnswered_isNotRunAgainAfterTheRestart() throws Exception {
        GatewayHarness before = start(new ManualTime());
        before.dm("question");
        before.agent.run(0).reply("the answer");
        assertFalse(before.gateway.shutdown(Duration.ZERO), "the run was still active");
        assertEquals(List.of("the answer"), before.channel.texts(), "what it produced is still delivered");
        assertEquals(List.of(), journal.pending(), "it answered, so it is not pending");

        GatewayHarness after = start(new ManualTime(before.time.instant().plusSeconds(20)));
        assertTrue(after.agent.runs().isEmpty(), "never answered twice");
    }

    @Test
    void aMessageWhoseInboundDebounceEndsDuringShutdown_staysPendingInsteadOfStartingARun() throws Exception {
        GatewayHarness before = new GatewayHarness(s -> s.inboundDebounce(Duration.ofMillis(500)), CommandHandler.NONE,
                journal, new ManualTime());
        before.dm("buffered");
        assertTrue(before.gateway.shutdown(Duration.ZERO), "nothing was running");
        before.advanceMillis(1000);
        assertTrue(before.agent.runs().isEmpty(), "no run starts once the gateway is stopping");
        assertEquals(1, journal.pending().size());

        GatewayHarness after = start(new ManualTime(before.time.instant().plusSeconds(20)));
        assertEquals(List.of("buffered"), after.agent.prompts());
    }

    @Test
    void restoredMessages_bypassInboundDebounce_andRunInTheirOriginalOrderAndMode() {
        UnaryOperator<GatewaySettings.Builder> debounced = s -> s.inboundDebounce(Duration.ofMillis(500));
        GatewayHarness before = new GatewayHarness(debounced, CommandHandler.NONE, journal, new ManualTime());
        before.gateway.setSessionOverride(SessionKey.of("test:dm:user"), QueueOverride.mode(QueueMode.FOLLOWUP));
        before.dm("one");
        before.advanceMillis(500);
        assertEquals(List.of("one"), before.agent.prompts());
        before.dm("two");
        before.dm("three");
        // crash: "one" in flight, "two" and "three" queued as followups

        GatewayHarness after = new GatewayHarness(debounced, CommandHandler.NONE, journal,
                new ManualTime(before.time.instant().plusSeconds(30)));
        assertEquals(List.of("one"), after.agent.prompts(), "runs at once and alone, not buffered with the others");
        after.agent.run(0).complete("1");
        after.advanceMillis(1000);
        assertEquals(List.of("one", "two"), after.agent.prompts(), "followups keep their own turns");
        after.agent.run(1).complete("2");
        after.advanceMillis(1000);
        assertEquals(List.of("one", "two", "three"), after.agent.prompts());
        after.agent.run(2).complete("3");
        assertEquals(List.of("1", "2", "3"), after.channel.texts());
        assertEquals(List.of(), journal.pending());
    }

    @Test
    void theTtlCountsFromWhenTheGatewayAcceptedAMessage_notFromThePlatformsTimestamp() {
        GatewayHarness before = start(new ManualTime());
        // delivered late by the platform: stamped two hours before the gateway accepted it
        InboundMessage late = before.message("late").receivedAt(before.time.instant().minus(Duration.ofHours(2))).build();
        before.gateway.accept(late);
        assertEquals(before.time.instant(), journal.pending().get(0).acceptedAt());

        GatewayHarness after = start(new ManualTime(before.time.instant().plus(Duration.ofMinutes(10))));
        assertEquals(List.of("late"), after.agent.prompts(), "accepted 10 minutes ago: well within the 1 h ttl");
        after.agent.run(0).complete("answer");
        assertEquals(Disposition.RAN, after.dispositions.of(late.platformMessageId()));
    }
}
