package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.store.InMemoryJournal;
import dev.laneway.core.testing.FakeChannel;
import dev.laneway.core.testing.ManualTime;
import dev.laneway.core.testing.RecordingListener;
import dev.laneway.core.testing.ScriptedAgent;
import dev.laneway.core.testing.TrampolineExecutor;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Channels at boot: replies wait for a channel that has not started yet (restored answers and
 * expiry notices are not lost to a platform client that cannot send before its start completes),
 * and a channel that fails to start is retried with backoff until it starts or the gateway stops.
 */
class ChannelStartTest {

    private final InMemoryJournal journal = new InMemoryJournal();
    private final ScriptedAgent agent = new ScriptedAgent();
    private final RecordingListener dispositions = new RecordingListener();

    private Gateway gateway(ManualTime time, FakeChannel channel) {
        return gateway(time, channel, agent, dispositions);
    }

    private Gateway gateway(ManualTime time, FakeChannel channel, ScriptedAgent agent, RecordingListener listener) {
        return Gateway.builder().clock(time).scheduler(time).executor(new TrampolineExecutor())
                .agent(agent).journal(journal).listener(listener).channel(channel).build();
    }

    private static InboundMessage dm(String id, String text, Instant at) {
        return InboundMessage.builder("test").text(text).platformMessageId(id).chatId("chat").senderId("user")
                .receivedAt(at).build();
    }

    /** Accepts messages on a gateway that then "crashes": they stay pending in the journal. */
    private void pendingBeforeARestart(ManualTime time, String... texts) {
        Gateway before = gateway(time, new FakeChannel("test"), new ScriptedAgent(), new RecordingListener());
        before.start();
        for (int i = 0; i < texts.length; i++) {
            before.accept(dm("m" + (i + 1), texts[i], time.instant()));
        }
    }

    @Test
    void aRestoredAnswer_waitsForTheChannelsStartToComplete_andOnlyThenCountsAsAnswered() {
        ManualTime time = new ManualTime();
        pendingBeforeARestart(time, "question");
        ManualTime later = new ManualTime(time.instant().plusSeconds(30));
        List<String> sentDuringStart = new ArrayList<>();
        FakeChannel channel = new FakeChannel("test").sendsOnlyOnceStarted();
        channel.duringStart(() -> {
            // the restored run answers while the platform client is still connecting
            agent.run(0).complete("answer");
            sentDuringStart.addAll(channel.texts());
            assertEquals(1, journal.pending().size(), "not answered while the answer is only held");
        });
        gateway(later, channel).start();

        assertEquals(List.of(), sentDuringStart, "nothing was attempted before the start completed");
        assertEquals(List.of("answer"), channel.texts(), "the held answer went out once the channel had started");
        assertEquals(List.of(), journal.pending());
        assertEquals(Boolean.TRUE, journal.answered(1));
    }

    @Test
    void ttlNoticesFromTheRestore_areDeliveredOnceTheChannelHasStarted() {
        ManualTime time = new ManualTime();
        pendingBeforeARestart(time, "running", "old one");
        FakeChannel channel = new FakeChannel("test").sendsOnlyOnceStarted();
        gateway(new ManualTime(time.instant().plus(Duration.ofHours(2))), channel).start();

        assertEquals(List.of("⚠️ Skipped: this message waited longer than 1 h while the gateway was down."
                + " Please resend it if it still matters."), channel.texts());
        assertEquals(Disposition.EXPIRED, dispositions.of("m2"));
    }

    @Test
    void aChannelThatFailsToStart_isRetriedWithBackoff_andGetsItsHeldRepliesOnceItStarts() {
        ManualTime time = new ManualTime();
        pendingBeforeARestart(time, "first", "second");
        ManualTime later = new ManualTime(time.instant().plusSeconds(30));
        FakeChannel channel = new FakeChannel("test").sendsOnlyOnceStarted().failStarts(3);
        Gateway gateway = gateway(later, channel);
        gateway.start();
        assertEquals(1, channel.startAttempts());
        assertFalse(gateway.channelStarted("test"));

        agent.run(0).complete("answer one");
        assertEquals(List.of(), channel.texts(), "held while the channel is down");
        assertEquals(2, journal.pending().size(), "an answer that was not delivered is not an answer");

        later.advance(Duration.ofMillis(999));
        assertEquals(1, channel.startAttempts(), "first retry after 1 s");
        later.advanceMillis(1);
        assertEquals(2, channel.startAttempts());
        later.advance(Duration.ofSeconds(2));
        assertEquals(3, channel.startAttempts(), "then 2 s");
        later.advance(Duration.ofSeconds(3));
        assertEquals(3, channel.startAttempts());
        assertFalse(gateway.channelStarted("test"));
        later.advance(Duration.ofSeconds(1));
        assertEquals(4, channel.startAttempts(), "then 4 s; this one succeeds");
        assertTrue(gateway.channelStarted("test"));
        assertEquals(List.of("answer one"), channel.texts(), "the held reply went out");
        assertEquals(List.of("m2"), journal.pending().stream().map(e -> e.message().platformMessageId()).toList());

        agent.lastRun().complete("answer two");
        assertEquals(List.of("answer one", "answer two"), channel.texts());
        assertEquals(List.of(), journal.pending());
        later.advance(Duration.ofMinutes(10));
        assertEquals(4, channel.startAttempts(), "a started channel is not started again");
    }

    @Test
    void startRetriesBackOffFromOneSecond_doubling_toAtMostOneMinute() {
        List<Long> seconds = new ArrayList<>();
        for (int failures = 1; failures <= 9; failures++) {
            seconds.add(ChannelStarter.backoff(failures).toSeconds());
        }
        assertEquals(List.of(1L, 2L, 4L, 8L, 16L, 32L, 60L, 60L, 60L), seconds);
    }

    @Test
    void shutdown_cancelsTheRetriesOfAChannelThatNeverStarted() throws Exception {
        ManualTime time = new ManualTime();
        FakeChannel channel = new FakeChannel("test").failStarts(Integer.MAX_VALUE);
        Gateway gateway = gateway(time, channel);
        gateway.start();
        time.advance(Duration.ofSeconds(3));
        assertEquals(3, channel.startAttempts());

        assertTrue(gateway.shutdown(Duration.ZERO));
        assertEquals(0, time.pendingTasks(), "no retry left scheduled");
        time.advance(Duration.ofMinutes(5));
        assertEquals(3, channel.startAttempts());
        assertFalse(gateway.channelStarted("test"));
    }

    @Test
    void repliesHeldForAChannelThatNeverStarted_doNotHoldUpShutdown_andTheirMessagesRunAgainAfterARestart()
            throws Exception {
        ManualTime time = new ManualTime();
        pendingBeforeARestart(time, "question");
        ManualTime later = new ManualTime(time.instant().plusSeconds(30));
        FakeChannel down = new FakeChannel("test").sendsOnlyOnceStarted().failStarts(Integer.MAX_VALUE);
        Gateway gateway = gateway(later, down);
        gateway.start();
        agent.run(0).complete("answer");
        long begun = System.nanoTime();
        assertTrue(gateway.shutdown(Duration.ofSeconds(30)));
        assertTrue(Duration.ofNanos(System.nanoTime() - begun).compareTo(Duration.ofSeconds(4)) < 0,
                "shutdown did not wait for replies that cannot be delivered");
        assertEquals(1, journal.pending().size(), "undelivered, so it runs again at the next start");

        FakeChannel up = new FakeChannel("test");
        gateway(new ManualTime(later.instant().plusSeconds(30)), up).start();
        assertEquals(2, agent.runs().size());
        agent.lastRun().complete("answer");
        assertEquals(List.of("answer"), up.texts());
        assertEquals(List.of(), journal.pending());
    }

    @Test
    void aGatewayWhoseChannelsAreStartedByTheCaller_deliversAtOnce() {
        ManualTime time = new ManualTime();
        FakeChannel channel = new FakeChannel("test");
        Gateway gateway = gateway(time, channel);
        gateway.accept(dm("m1", "hi", time.instant()));
        agent.run(0).complete("hello");
        assertEquals(List.of("hello"), channel.texts());
    }

    @Test
    void anErrorThrownByAStartRetry_isRetriedAgain_untilTheChannelStarts() {
        ManualTime time = new ManualTime();
        AtomicInteger starts = new AtomicInteger();
        FakeChannel channel = new FakeChannel("test").failStarts(1).duringStart(() -> {
            if (starts.incrementAndGet() == 1) {
                throw new AssertionError("SDK invariant broken"); // the second attempt, inside the SDK
            }
        });
        Gateway gateway = gateway(time, channel);
        gateway.start();
        time.advance(Duration.ofSeconds(1));
        assertEquals(2, channel.startAttempts());
        assertFalse(gateway.channelStarted("test"));
        time.advance(Duration.ofSeconds(2));
        assertEquals(3, channel.startAttempts(), "the error was one more failed start, retried after 2 s");
        assertTrue(gateway.channelStarted("test"));
    }

    @Test
    void aFatalErrorFromAChannelsFirstStart_startsTheOtherChannelsFirst_retriesIt_andIsRethrown() {
        ManualTime time = new ManualTime();
        AtomicInteger starts = new AtomicInteger();
        FakeChannel broken = new FakeChannel("broken").duringStart(() -> {
            if (starts.incrementAndGet() == 1) {
                throw new StackOverflowError();
            }
        });
        FakeChannel other = new FakeChannel("other");
        Gateway gateway = Gateway.builder().clock(time).scheduler(time).executor(new TrampolineExecutor())
                .agent(agent).journal(journal).listener(dispositions).channel(broken).channel(other).build();
        assertThrows(StackOverflowError.class, gateway::start, "a fatal error is not swallowed");
        assertTrue(gateway.channelStarted("other"), "the channels after it still started");
        assertFalse(gateway.channelStarted("broken"));
        time.advance(Duration.ofSeconds(1));
        assertTrue(gateway.channelStarted("broken"), "and it was retried");
    }

    @Test
    void aSecondStart_doesNothing() {
        ManualTime time = new ManualTime();
        FakeChannel channel = new FakeChannel("test").sendsOnlyOnceStarted();
        Gateway gateway = gateway(time, channel);
        gateway.start();
        gateway.start();
        assertEquals(1, channel.startAttempts(), "the channel is not started twice");
        gateway.accept(dm("m1", "hi", time.instant()));
        agent.run(0).complete("hello");
        assertEquals(List.of("hello"), channel.texts(), "and its replies are not held again");
    }
}
