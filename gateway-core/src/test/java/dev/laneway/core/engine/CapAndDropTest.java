package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.testing.GatewayHarness;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The cap and the three drop policies, with their notices (docs/behaviour.md §5.4 to §5.6). */
class CapAndDropTest {

    private static GatewayHarness harness(QueueMode mode, DropPolicy drop, boolean notify) {
        return new GatewayHarness(s -> s.notifyDrops(notify)
                .queueDefaults(new QueueSettings(mode, Duration.ofSeconds(1), 2, drop)));
    }

    @Test
    void dropOld_dropsTheOldestQueuedItem_andTellsItsSenderOncePerDrain() {
        GatewayHarness h = harness(QueueMode.COLLECT, DropPolicy.OLD, true);
        h.dm("run");
        String a = h.dm("a");
        String b = h.dm("b");
        h.dm("c");
        String d = h.dm("d");
        assertEquals(Disposition.DROPPED_OLD, h.dispositions.of(a));
        assertEquals(Disposition.DROPPED_OLD, h.dispositions.of(b));
        assertTrue(h.channel.texts().isEmpty(), "notices wait for the drain so they can count");
        h.agent.run(0).complete("done");
        h.advanceMillis(1000);
        assertEquals(List.of("done", "⚠️ Queue full (cap 2): 2 older message(s) were dropped."), h.channel.texts());
        String prompt = h.agent.run(1).prompt();
        assertTrue(prompt.contains("\nc\n") && prompt.endsWith("\nd"), prompt);
        assertFalse(prompt.contains("[Queue overflow]"), "drop old keeps no summary");
        h.agent.run(1).complete();
        assertEquals(Disposition.COLLECTED, h.dispositions.of(d));
    }

    @Test
    void dropNew_rejectsTheNewcomer_withTheSpecNotice_once() {
        GatewayHarness h = harness(QueueMode.COLLECT, DropPolicy.NEW, true);
        h.dm("run");
        h.dm("a");
        h.dm("b");
        String c = h.dm("c");
        String d = h.dm("d");
        assertEquals(Disposition.REJECTED_NEW, h.dispositions.of(c));
        assertEquals(Disposition.REJECTED_NEW, h.dispositions.of(d));
        assertEquals(List.of("⚠️ Queue full (cap 2): this message was not queued. Please resend later."), h.channel.texts());
        assertEquals(c, h.channel.sent().get(0).route().replyToMessageId());
        h.agent.run(0).complete();
        h.advanceMillis(1000);
        assertTrue(h.agent.run(1).prompt().endsWith("Queued #2\nb"));
    }

    @Test
    void summarize_keepsASummaryLineUnderTheCollectHeader_andEveryRealMessageStillRuns() {
        GatewayHarness h = harness(QueueMode.COLLECT, DropPolicy.SUMMARIZE, true);
        h.dm("run");
        String a = h.dm("a   lot\n\nof   space");
        h.dm("b");
        h.dm("c");
        h.agent.run(0).complete("done");
        h.advanceMillis(1000);
        assertEquals("""
                [Queued messages while agent was busy]

                [Queue overflow] Dropped 1 message due to cap.
                Summary:
                - a lot of space

                ---
                Queued #1
                b

                ---
                Queued #2
                c""", h.agent.run(1).prompt());
        assertEquals(Disposition.SUMMARIZED, h.dispositions.of(a));
        assertEquals(List.of("done", "⚠️ Queue full (cap 2): 1 older message(s) were summarized."), h.channel.texts());
    }

    @Test
    void summarize_inFollowupMode_prependsTheBlockToTheNextItemsPrompt_withoutConsumingIt() {
        GatewayHarness h = harness(QueueMode.FOLLOWUP, DropPolicy.SUMMARIZE, false);
        h.dm("run");
        h.dm("one");
        h.dm("two");
        h.dm("three");
        h.dm("four");
        h.agent.run(0).complete("first answer");
        h.advanceMillis(1000);
        assertEquals("""
                [Queue overflow] Dropped 2 messages due to cap.
                Summary:
                - one
                - two

                three""", h.agent.run(1).prompt());
        h.agent.run(1).complete("second answer");
        assertEquals("four", h.agent.run(2).prompt(), "the summary never replaces a real message");
        assertEquals(List.of("first answer", "second answer"), h.channel.texts(), "notifyDrops: false sends no notices");
    }

    @Test
    void summaryLine_isCollapsedAndCutAt160CharactersWithAnEllipsis() {
        String line = PromptFormatter.summaryLine("x".repeat(100) + "   \n " + "y".repeat(100));
        assertEquals(160, line.length());
        assertTrue(line.endsWith("…"));
        assertTrue(line.contains("x y"));
        assertEquals("short", PromptFormatter.summaryLine("  short  "));
    }

    @Test
    void summaryLine_neverCutsAnEmojiInHalf() {
        String line = PromptFormatter.summaryLine("x".repeat(158) + "😀" + "y".repeat(10));
        assertEquals("x".repeat(158) + "😀…", line);
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            boolean paired = Character.isHighSurrogate(c) ? i + 1 < line.length() && Character.isLowSurrogate(line.charAt(i + 1))
                    : !Character.isLowSurrogate(c) || (i > 0 && Character.isHighSurrogate(line.charAt(i - 1)));
            assertTrue(paired, "lone surrogate at " + i);
        }
        assertEquals(160, line.codePointCount(0, line.length()));
        String emojiOnly = "😀".repeat(160);
        assertEquals(emojiOnly, PromptFormatter.summaryLine(emojiOnly), "160 emoji are 160 characters: not cut");
    }

    @Test
    void everyDroppedMessage_isAccountedForExactlyOnce() {
        GatewayHarness h = harness(QueueMode.COLLECT, DropPolicy.SUMMARIZE, true);
        h.dm("run");
        for (int i = 0; i < 10; i++) {
            h.dm("m" + i);
        }
        h.agent.run(0).complete();
        h.advanceMillis(1000);
        h.agent.run(1).complete();
        assertEquals(11, h.dispositions.size());
        assertEquals(8, h.dispositions.count(Disposition.SUMMARIZED));
        assertEquals(2, h.dispositions.count(Disposition.COLLECTED));
        assertEquals(0, h.gateway.pendingMessages());
    }
}
