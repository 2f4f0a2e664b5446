package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.SessionKey;
import dev.laneway.core.store.InMemoryJournal;
import dev.laneway.core.testing.FakeChannel;
import dev.laneway.core.testing.GatewayHarness;
import dev.laneway.core.testing.LogCapture;
import dev.laneway.core.testing.ManualTime;
import dev.laneway.core.testing.ScriptedAgent;
import dev.laneway.core.testing.TrampolineExecutor;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** How much of an answer is sent: empty answers, the answer bound, and {@code /stop} of unsent chunks. */
class AnswerBoundsTest {

    private static final SessionKey USER = SessionKey.of("test:dm:user");

    // ---------------------------------------------------------------- empty answers

    @Test
    void anEmptyAnswer_tellsTheUser_isLoggedAtWarn_andCounted_andTheMessageCountsAsAnswered() {
        List<String> empty = new CopyOnWriteArrayList<>();
        ManualTime time = new ManualTime();
        ScriptedAgent agent = new ScriptedAgent();
        FakeChannel channel = new FakeChannel("test");
        InMemoryJournal journal = new InMemoryJournal();
        Gateway gateway = Gateway.builder().clock(time).scheduler(time).executor(new TrampolineExecutor()).agent(agent)
                .journal(journal).channel(channel).observer(new GatewayObserver() {
                    @Override
                    public void emptyAnswer(String name) {
                        empty.add(name);
                    }
                }).build();
        gateway.start();
        try (LogCapture log = LogCapture.all()) {
            gateway.accept(InboundMessage.builder("test").text("hello").platformMessageId("m1").receivedAt(time.instant()).build());
            agent.run(0).complete();

            assertEquals(List.of("⚠️ The agent returned an empty answer."), channel.texts());
            assertEquals(List.of("scripted"), empty, "counted for operators");
            assertTrue(log.warnings().stream().anyMatch(line -> line.contains("returned an empty answer")), log.lines().toString());
        }
        assertEquals(Boolean.TRUE, journal.answered(1), "the run happened: not run again after a restart");
    }

    @Test
    void aBlankAnswer_isAnEmptyAnswer() {
        GatewayHarness h = new GatewayHarness();
        String id = h.dm("hello");
        h.agent.run(0).complete(" \n\t ");
        assertEquals(List.of(Notices.EMPTY_ANSWER), h.channel.texts());
        assertEquals(Disposition.RAN, h.dispositions.of(id));
    }

    @Test
    void aStoppedOrFailedRun_isNotAnEmptyAnswer() {
        GatewayHarness h = new GatewayHarness(s -> s.failureRetries(0));
        h.dm("one");
        h.gateway.stop(USER);
        h.dm("two");
        h.agent.run(1).fail("timeout", false);
        assertEquals(List.of(Notices.failure("timeout")), h.channel.texts());
    }

    // ---------------------------------------------------------------- the answer bound

    @Test
    void anAnswerOverTheBound_isCutAtABoundary_andTheUserIsToldItWasCut() {
        GatewayHarness h = new GatewayHarness(s -> s.maxAnswerChars(1000));
        h.dm("write a lot");
        String sentence = "This is one sentence of a very long answer. ";
        h.agent.run(0).complete(sentence.repeat(10_000)); // 440,000 characters
        List<String> texts = h.channel.texts();
        assertEquals(2, texts.size(), texts.size() + " messages");
        assertTrue(texts.get(0).length() <= 1000 && texts.get(0).length() > 700, "cut near the bound: " + texts.get(0).length());
        assertTrue(texts.get(0).endsWith("answer."), "cut after a sentence: " + texts.get(0));
        assertEquals("✂️ The answer was longer than 1000 characters; the rest was cut.", texts.get(1));
    }

    @Test
    void theBoundIsPerRun_laterRepliesAreCutThenDropped() {
        GatewayHarness h = new GatewayHarness(s -> s.maxAnswerChars(1000));
        h.dm("go");
        h.agent.run(0).reply("a".repeat(600)).reply("b".repeat(300)).reply("c".repeat(300)).reply("d".repeat(300));
        h.agent.run(0).complete();
        List<String> texts = h.channel.texts();
        assertEquals(List.of("a".repeat(600), "b".repeat(300), "c".repeat(100), Notices.answerCut(1000)), texts);

        h.dm("again");
        h.agent.run(1).complete("a short one");
        assertEquals("a short one", h.channel.texts().getLast(), "the next run has its own bound");
    }

    @Test
    void aCutAnswerNeverLeavesACodeFenceOpen() {
        GatewayHarness h = new GatewayHarness(s -> s.maxAnswerChars(500));
        h.dm("code please");
        h.agent.run(0).complete("Here:\n```java\n" + "int x = 1;\n".repeat(1000) + "```");
        String head = h.channel.texts().getFirst();
        assertTrue(head.length() <= 500, head);
        assertTrue(head.startsWith("Here:") && head.endsWith("\n```"), head);
    }

    @Test
    void theBound_isValidatedWithAClearError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> GatewaySettings.builder().maxAnswerChars(99).build());
        assertEquals("messages.maxAnswerChars must be >= 100, got 99", e.getMessage());
        assertEquals(20_000, GatewaySettings.defaults().maxAnswerChars());
    }

    // ---------------------------------------------------------------- /stop and unsent chunks

    @Test
    void stop_dropsTheUnsentChunksOfAnAnswerWhoseRunHasEnded() {
        GatewayHarness h = new GatewayHarness();
        String id = h.dm("write a lot");
        h.outbox.pause();                          // the answer waits in the outbox after its run ended
        h.agent.run(0).complete("word ".repeat(3000)); // 15,000 characters: four chunks at 4096
        h.channel.onSend(text -> h.gateway.stop(USER)); // the user sends /stop once the first chunk arrives
        h.outbox.resume();

        assertEquals(1, h.channel.texts().size(), "only the chunk sent before /stop");
        assertEquals(Disposition.RAN, h.dispositions.of(id), "the message still counts as answered");
        assertEquals(0, h.gateway.pendingMessages());
    }

    @Test
    void stop_dropsAnAnswerStillQueued_butKeepsNoticesAndOtherSessions() {
        GatewayHarness h = new GatewayHarness();
        String mine = h.dm("mine");
        h.send(h.message("theirs").chatId("other").senderId("other"));
        h.outbox.pause();
        h.agent.run(0).complete("my answer");
        h.agent.run(1).complete("their answer");
        h.gateway.reply(h.agent.run(0).request().route(), "a notice");
        assertEquals(0, h.gateway.stop(USER), "no run left to stop");
        h.outbox.resume();

        assertEquals(List.of("a notice"), h.channel.textsTo("chat"));
        assertEquals(List.of("their answer"), h.channel.textsTo("other"));
        assertEquals(Disposition.RAN, h.dispositions.of(mine), "the message still counts as answered");
        assertEquals(0, h.gateway.pendingMessages());
    }
}
