package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueOverride;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.SessionKey;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.store.InMemoryJournal;
import dev.laneway.core.store.MessageJournal;
import dev.laneway.core.testing.FakeChannel;
import dev.laneway.core.testing.ForwardingJournal;
import dev.laneway.core.testing.GatewayHarness;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A message's notice (failure, skip, "not queued", expiry) reaches its chat's outbox before the
 * message counts as ended: before its "answered" journal record and before the channel's settled
 * hook (Slack removes its 👀 there). A crash in between then leaves the message pending, not
 * ended without a word to the user. The channel's progress list shows sends, hooks and journal
 * writes in the order they happened.
 */
class NoticeBeforeSettleTest {

    private static final String FAILURE = "⚠️ Sorry, something went wrong while answering. (boom)";
    private static final String SKIPPED = "⚠️ Skipped: a newer message interrupted this conversation.";

    private final InMemoryJournal journal = new InMemoryJournal();
    private final AtomicReference<FakeChannel> channel = new AtomicReference<>();

    /** The journal, noting each end of a message in the channel's progress list. */
    private final MessageJournal noting = new ForwardingJournal(journal) {
        @Override
        public void settled(long seq, boolean answered) {
            channel.get().note((answered ? "answered " : "ended ") + seq);
            super.settled(seq, answered);
        }
    };

    private GatewayHarness harness(UnaryOperator<GatewaySettings.Builder> settings, ManualTime time) {
        GatewayHarness h = new GatewayHarness(settings, CommandHandler.NONE, noting, time);
        channel.set(h.channel);
        return h;
    }

    private static UnaryOperator<GatewaySettings.Builder> mode(QueueMode mode, int cap, DropPolicy drop) {
        return s -> s.queueDefaults(new QueueSettings(mode, Duration.ZERO, cap, drop)).failureRetries(0);
    }

    @Test
    void aFailedRun_sendsItsFailureNotice_beforeItsAnsweredRecordAndItsSettledHook() {
        GatewayHarness h = harness(s -> s.failureRetries(0), new ManualTime());
        String id = h.dm("question");
        h.agent.run(0).fail("boom", false);
        assertEquals(List.of("accepted " + id, "send " + FAILURE, "answered 1", "settled " + id), h.channel.progress());
    }

    @Test
    void anInterruptOfARunStillWaitingForItsLane_sendsTheSkipNotice_beforeTheSkippedMessageEnds() {
        GatewayHarness h = harness(s -> mode(QueueMode.INTERRUPT, 20, DropPolicy.SUMMARIZE).apply(s).mainMaxConcurrent(1),
                new ManualTime());
        h.send(h.message("holds main").chatId("other").senderId("other"));
        String waiting = h.dm("waits for main");
        String interrupting = h.dm("interrupts");
        assertEquals(1, h.agent.runs().size(), "the second run was still waiting for main");
        assertEquals(List.of("accepted m1", "accepted " + waiting, "accepted " + interrupting, "send " + SKIPPED,
                "ended 2", "settled " + waiting), h.channel.progress());
    }

    @Test
    void anInterrupt_sendsTheSkipNotice_beforeTheQueuedMessagesItDiscardsEnd() {
        GatewayHarness h = harness(mode(QueueMode.FOLLOWUP, 20, DropPolicy.SUMMARIZE), new ManualTime());
        String running = h.dm("running");
        String queued = h.dm("queued");
        h.gateway.setSessionOverride(SessionKey.of("test:dm:user"), QueueOverride.mode(QueueMode.INTERRUPT));
        String interrupting = h.dm("interrupts");
        assertEquals(List.of("accepted " + running, "accepted " + queued, "accepted " + interrupting,
                "send " + SKIPPED, "ended 2", "settled " + queued), h.channel.progress().subList(0, 6),
                "then the aborted run ends");
    }

    @Test
    void aNewcomerRejectedByTheCap_isToldBeforeItEnds() {
        GatewayHarness h = harness(mode(QueueMode.FOLLOWUP, 1, DropPolicy.NEW), new ManualTime());
        h.dm("running");
        h.dm("queued");
        String rejected = h.dm("rejected");
        List<String> progress = h.channel.progress();
        assertEquals(List.of("accepted " + rejected,
                "send ⚠️ Queue full (cap 1): this message was not queued. Please resend later.",
                "ended 3", "settled " + rejected), progress.subList(progress.size() - 4, progress.size()));
    }

    @Test
    void messagesExpiredAtARestart_areToldBeforeTheyEnd() {
        ManualTime time = new ManualTime();
        GatewayHarness before = new GatewayHarness(s -> s, CommandHandler.NONE, journal, time);
        String first = before.dm("first");
        String second = before.dm("second");
        // crash; the restart comes two hours later, past the 1 h ttl
        GatewayHarness after = new GatewayHarness(s -> s, CommandHandler.NONE, journal,
                new ManualTime(time.instant().plus(Duration.ofHours(2))));
        assertEquals(List.of("send ⚠️ Skipped: this message waited longer than 1 h while the gateway was down."
                + " Please resend it if it still matters.", "settled " + first, "settled " + second), after.channel.progress());
    }
}
