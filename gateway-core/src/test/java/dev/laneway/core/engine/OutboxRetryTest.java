package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.channel.SendFailure;
import dev.laneway.core.store.InMemoryJournal;
import dev.laneway.core.testing.FakeChannel;
import dev.laneway.core.testing.LogCapture;
import dev.laneway.core.testing.ManualTime;
import dev.laneway.core.testing.ScriptedAgent;
import dev.laneway.core.testing.TrampolineExecutor;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The outbox's pacing and retries, which every channel shares: a chat waits on a timer (never a
 * sleeping thread) for its pace, a 429's retry-after or a backoff, other chats go on, and a reply
 * that still fails leaves its message pending instead of answered.
 */
class OutboxRetryTest {

    private final ManualTime time = new ManualTime();
    private final ScriptedAgent agent = new ScriptedAgent();
    private final FakeChannel channel = new FakeChannel("test");
    private final InMemoryJournal journal = new InMemoryJournal();
    private final List<String> events = Collections.synchronizedList(new ArrayList<>());
    private final LogCapture log = LogCapture.of(Outbox.class);
    private final Gateway gateway = Gateway.builder().clock(time).scheduler(time).executor(new TrampolineExecutor())
            .agent(agent).journal(journal).channel(channel).observer(new GatewayObserver() {
                @Override
                public void sent(String name) {
                    events.add("sent");
                }

                @Override
                public void sendFailed(String name) {
                    events.add("failed");
                }
            }).build();
    private int nextId;

    OutboxRetryTest() {
        gateway.start();
    }

    @AfterEach
    void closeLog() {
        log.close();
    }

    /** A DM in chat {@code chat}; returns its journal sequence number. */
    private long dm(String chat, String text) {
        gateway.accept(InboundMessage.builder("test").chatId(chat).senderId(chat).text(text)
                .platformMessageId("m" + (++nextId)).receivedAt(time.instant()).build());
        return nextId;
    }

    @Test
    void aRateLimitedChat_waitsOutItsRetryAfterOnATimer_whileOtherChatsGoOn() {
        channel.failNextSends(SendFailure.rateLimited(Duration.ofSeconds(30), "HTTP 429"));
        long ann = dm("ann", "hello");
        agent.run(0).complete("answer for Ann");
        assertEquals(List.of("answer for Ann"), channel.attempts());
        assertEquals(List.of(), channel.texts());
        assertEquals(List.of(Duration.ofSeconds(30)), time.pendingDelays(), "the chat waits on a timer, not a thread");

        long bob = dm("bob", "hi");
        agent.run(1).complete("answer for Bob");
        assertEquals(List.of("answer for Bob"), channel.textsTo("bob"), "another chat is not held up");
        assertEquals(Boolean.TRUE, journal.answered(bob));
        assertNull(journal.answered(ann), "not answered before the answer went out");

        time.advance(Duration.ofSeconds(29));
        assertEquals(List.of(), channel.textsTo("ann"));
        time.advance(Duration.ofSeconds(1));
        assertEquals(List.of("answer for Ann"), channel.textsTo("ann"), "the same reply, sent again once");
        assertEquals(Boolean.TRUE, journal.answered(ann));
    }

    @Test
    void whileAChatWaitsOutA429_laterRepliesWaitBehindAndTypingIsNotSent() {
        channel.failNextSends(SendFailure.rateLimited(Duration.ofSeconds(30), "HTTP 429"));
        dm("ann", "first");
        agent.run(0).complete("one");
        int typingBefore = channel.typing().size();
        dm("ann", "second");
        agent.run(1).complete("two");
        assertEquals(typingBefore, channel.typing().size(), "no typing while the chat waits out its 429");
        assertEquals(List.of(), channel.texts());

        time.advance(Duration.ofSeconds(30));
        assertEquals(List.of("one", "two"), channel.texts(), "in order, once the pause is over");
    }

    @Test
    void aRateLimitedTypingAction_pausesTheChatLikeAMessage() {
        channel.failNextTyping(SendFailure.rateLimited(Duration.ofSeconds(8), "HTTP 429"));
        dm("ann", "hello");
        agent.run(0).complete("answer");
        assertEquals(List.of(), channel.texts(), "the reply waits for the typing action's retry-after");
        time.advance(Duration.ofSeconds(8));
        assertEquals(List.of("answer"), channel.texts());
    }

    @Test
    void aReplyQueuedDuringAPause_isNotAttemptedUntilThePauseEnds_andAFurther429PausesAgain() {
        channel.failNextTyping(SendFailure.rateLimited(Duration.ofSeconds(60), "HTTP 429"));
        dm("ann", "hello");
        time.advance(Duration.ofSeconds(10));
        channel.failNextSends(SendFailure.rateLimited(Duration.ofSeconds(5), "HTTP 429"));
        agent.run(0).complete("answer");
        time.advance(Duration.ofSeconds(49));
        assertEquals(List.of(), channel.attempts(), "nothing is tried while the 60 s pause holds");
        time.advance(Duration.ofSeconds(1));
        assertEquals(List.of("answer"), channel.attempts(), "tried once the pause is over: 429 again");
        time.advance(Duration.ofSeconds(5));
        assertEquals(List.of("answer"), channel.texts());
    }

    @Test
    void aServerErrorOnce_isSentAgainAfterABackoff_andTheMessageCountsAsAnswered() {
        channel.failNextSends(SendFailure.unavailable("HTTP 502 Bad Gateway"));
        long seq = dm("ann", "hello");
        agent.run(0).complete("answer");
        assertEquals(List.of(), channel.texts());
        assertNull(journal.answered(seq));

        time.advance(Outbox.RETRY_BACKOFF.nominal(1));
        assertEquals(List.of("answer"), channel.texts());
        assertEquals(List.of("answer", "answer"), channel.attempts());
        assertEquals(Boolean.TRUE, journal.answered(seq));
        assertEquals(List.of("sent"), events, "one send, no failure counted");
        assertTrue(log.warnings().stream().anyMatch(line -> line.contains("HTTP 502") && line.contains("trying again")),
                log.warnings().toString());
    }

    @Test
    void aLaterReplyThatFinallyFails_leavesAMessageAnEarlierReplyAnswered_answered_andSaysNothingFalse() {
        try (LogCapture settle = LogCapture.of(Settlement.class)) {
            long seq = dm("ann", "hello");
            ScriptedAgent.ScriptedRun run = agent.run(0);
            run.reply("first part");
            assertEquals(List.of("first part"), channel.texts());
            assertEquals(Boolean.TRUE, journal.answered(seq), "answered when its first reply went out");

            channel.failNextSends(SendFailure.refused("HTTP 400"));
            run.complete("second part");

            assertEquals(List.of("sent", "failed"), events);
            assertEquals(Boolean.TRUE, journal.answered(seq), "it stays answered: running it again would answer twice");
            assertEquals(List.of(), journal.pending());
            assertEquals(List.of(), settle.warnings(), "no claim that it stays pending");
            assertTrue(log.messages(ch.qos.logback.classic.Level.ERROR).stream()
                    .anyMatch(line -> line.contains("unless an earlier reply answered it")), log.lines().toString());
        }
    }

    @Test
    void anErrorThrownByAChannel_failsThatSendOnly_andTheChatKeepsWorking() {
        channel.onSend(text -> {
            if (text.equals("boom")) {
                throw new AssertionError("a bug in the channel's SDK");
            }
        });
        long first = dm("ann", "hello");
        agent.run(0).complete("boom");
        assertEquals(List.of("failed"), events, "the send failed and was counted");
        assertNull(journal.answered(first), "not answered: it runs again after a restart");

        long second = dm("ann", "again");
        agent.run(1).complete("fine");
        assertTrue(channel.texts().contains("fine"), "the chat's queue moved on: " + channel.attempts());
        assertEquals(Boolean.TRUE, journal.answered(second));
    }

    @Test
    void aServerErrorThatPersists_isRetriedForABoundedTime_thenTheMessageStaysPending() {
        for (int i = 0; i <= Outbox.MAX_RETRIES; i++) {
            channel.failNextSends(SendFailure.unavailable("HTTP 500"));
        }
        long seq = dm("ann", "hello");
        agent.run(0).complete("answer");
        time.advance(Duration.ofMinutes(10));

        assertEquals(Outbox.MAX_RETRIES + 1, channel.attempts().size(), "bounded retries");
        assertEquals(List.of(), channel.texts());
        assertEquals(List.of("failed"), events, "counted as failed once");
        assertNull(journal.answered(seq), "not answered: the user never got it");
        assertEquals(1, journal.pending().size(), "it stays pending and runs again after a restart");
        assertTrue(log.messages(ch.qos.logback.classic.Level.ERROR).stream()
                .anyMatch(line -> line.contains("stays pending")), log.lines().toString());

        long next = dm("ann", "again");
        agent.run(1).complete("second answer");
        assertEquals(List.of("second answer"), channel.texts(), "the chat keeps working after a failed reply");
        assertEquals(Boolean.TRUE, journal.answered(next));
    }

    @Test
    void aRateLimitThatPersists_givesUpAfterBoundedRetries() {
        for (int i = 0; i <= Outbox.MAX_RETRIES; i++) {
            channel.failNextSends(SendFailure.rateLimited(Duration.ofSeconds(3), "HTTP 429"));
        }
        long seq = dm("ann", "hello");
        agent.run(0).complete("answer");
        time.advance(Duration.ofMinutes(10));
        assertEquals(Outbox.MAX_RETRIES + 1, channel.attempts().size());
        assertEquals(List.of(), channel.texts());
        assertNull(journal.answered(seq));
        assertEquals(0, time.pendingTasks(), "nothing left waiting");
    }

    @Test
    void aSendWithNoAnswerInTime_isLoggedAsMaybeDelivered_notSentAgain_andCountsAsAnswered() {
        channel.failNextSends(new IllegalStateException("Unable to execute sendmessage method",
                new SocketTimeoutException("timeout")));
        long seq = dm("ann", "hello");
        agent.run(0).complete("answer");
        time.advance(Duration.ofMinutes(1));

        assertEquals(List.of("answer"), channel.attempts(), "not sent again: it may have arrived");
        assertEquals(Boolean.TRUE, journal.answered(seq));
        assertTrue(log.warnings().stream().anyMatch(line -> line.contains("may well have been delivered")),
                log.lines().toString());
        assertTrue(log.lines().stream().noneMatch(line -> line.message().contains("lost")), log.lines().toString());
    }

    @Test
    void aRefusedReply_isNotRetried_andItsMessageStaysPending() {
        channel.failNextSends(SendFailure.refused("HTTP 403 Forbidden: bot was blocked by the user"));
        long seq = dm("ann", "hello");
        agent.run(0).complete("answer");
        time.advance(Duration.ofMinutes(1));
        assertEquals(1, channel.attempts().size());
        assertNull(journal.answered(seq));
    }

    @Test
    void pacing_holdsEachChunkOnATimer_withoutAskingTwice() {
        List<String> asked = Collections.synchronizedList(new ArrayList<>());
        channel.pacing(route -> {
            asked.add(route.chatId());
            return asked.size() == 1 ? Duration.ZERO : Duration.ofSeconds(2);
        });
        dm("ann", "hello");
        ScriptedAgent.ScriptedRun run = agent.run(0);
        run.reply("one");
        run.complete("two");
        assertEquals(List.of("one"), channel.texts());
        assertEquals(List.of(Duration.ofSeconds(2)), time.pendingDelays());
        time.advance(Duration.ofSeconds(2));
        assertEquals(List.of("one", "two"), channel.texts());
        assertEquals(2, asked.size(), "one booking per message");
    }
}
