package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.store.InMemoryJournal;
import dev.laneway.core.testing.GatewayHarness;
import dev.laneway.core.testing.ManualTime;
import dev.laneway.core.testing.ScriptedAgent.ScriptedRun;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * One person flooding a group cannot push everyone else's messages out (docs/behaviour.md §5.3,
 * §5.4): through the gateway, a flood from one sender and one message from another.
 */
class GroupFairnessTest {

    private static UnaryOperator<GatewaySettings.Builder> queue(QueueMode mode, int cap, DropPolicy drop) {
        return s -> s.queueDefaults(new QueueSettings(mode, Duration.ofSeconds(1), cap, drop));
    }

    @Test
    void aFloodFromOneSender_neverDropsAnothersMessage_whichIsAnsweredFirstInTheBatch() {
        GatewayHarness h = new GatewayHarness(queue(QueueMode.COLLECT, 20, DropPolicy.SUMMARIZE)); // part: 10
        h.group("alice", "run");
        String bob = h.group("bob", "bob's question");
        List<String> flood = new ArrayList<>();
        for (int i = 1; i <= 30; i++) {
            flood.add(h.group("alice", "flood " + i));
        }
        assertEquals(List.of(), h.dispositions.entries().stream()
                .filter(entry -> entry.message().platformMessageId().equals(bob)).toList(), "bob's message is still queued");
        for (int i = 0; i < 11; i++) { // alice's queue holds 19 of the cap of 20: her 11 oldest made room
            assertEquals(Disposition.SUMMARIZED, h.dispositions.of(flood.get(i)));
        }
        h.agent.run(0).complete("done");
        h.advanceMillis(1000);

        String prompt = h.agent.run(1).prompt();
        assertTrue(prompt.startsWith("""
                [Queued messages while agent was busy]

                [Queue overflow] Dropped 11 messages due to cap.
                Summary:
                - flood 1
                """), prompt);
        assertTrue(prompt.contains("""
                ---
                Queued #1 (from Bob)
                bob's question

                ---
                Queued #2 (from Alice)
                flood 12
                """), "bob has waited longest, so his message comes first:\n" + prompt);
        assertTrue(prompt.endsWith("Queued #20 (from Alice)\nflood 30"), prompt);
        h.agent.run(1).complete("answer");
        assertEquals(Disposition.COLLECTED, h.dispositions.of(bob));
        assertEquals(List.of("done", "⚠️ Queue full (cap 20): 11 older message(s) were summarized.", "answer"),
                h.channel.texts(), "only alice is told about drops");
    }

    @Test
    void inFollowupMode_sendersTakeTurns_soTheOtherMessageRunsBeforeMostOfTheFlood() {
        GatewayHarness h = new GatewayHarness(queue(QueueMode.FOLLOWUP, 20, DropPolicy.OLD));
        h.group("alice", "run");
        for (int i = 1; i <= 5; i++) {
            h.group("alice", "flood " + i);
        }
        String bob = h.group("bob", "bob's question");
        h.group("carol", "carol's question");
        h.agent.run(0).complete();
        for (int turn = 1; turn <= 7; turn++) {
            h.advanceMillis(1000);
            h.agent.run(turn).complete();
        }
        assertEquals(List.of("run", "flood 1", "bob's question", "carol's question", "flood 2", "flood 3", "flood 4",
                "flood 5"), h.agent.runs().stream().map(ScriptedRun::prompt).toList());
        assertEquals(Disposition.RAN, h.dispositions.of(bob));
    }

    @Test
    void dropNew_refusesTheFloodersNewestQueued_notTheOtherSendersMessage() {
        GatewayHarness h = new GatewayHarness(queue(QueueMode.COLLECT, 4, DropPolicy.NEW)); // part: 2
        h.group("alice", "run");
        List<String> flood = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            flood.add(h.group("alice", "flood " + i)); // the queue is not full: alice may hold more than her part
        }
        String refusedNow = h.group("alice", "flood 5"); // full, alice over her part: her newcomer is refused
        String bob = h.group("bob", "bob's question"); // full: alice's newest queued message is refused instead
        assertEquals(Disposition.REJECTED_NEW, h.dispositions.of(refusedNow));
        assertEquals(Disposition.REJECTED_NEW, h.dispositions.of(flood.get(3)));
        assertEquals(List.of("⚠️ Queue full (cap 4): this message was not queued. Please resend later."), h.channel.texts(),
                "alice is told once in this drain cycle");
        assertEquals(refusedNow, h.channel.sent().get(0).route().replyToMessageId());

        h.agent.run(0).complete("done");
        h.advanceMillis(1000);
        String prompt = h.agent.run(1).prompt();
        assertTrue(prompt.contains("Queued #1 (from Alice)\nflood 1\n\n---\nQueued #2 (from Bob)\nbob's question"), prompt);
        assertTrue(prompt.endsWith("Queued #4 (from Alice)\nflood 3"), prompt);
        h.agent.run(1).complete();
        assertEquals(Disposition.COLLECTED, h.dispositions.of(bob));
    }

    @Test
    void withCapPerSenderOff_theOldestIsDroppedWhoeverSentIt_asBefore() {
        GatewayHarness h = new GatewayHarness(s -> queue(QueueMode.COLLECT, 3, DropPolicy.OLD).apply(s).queueCapPerSender(0));
        h.group("alice", "run");
        String bob = h.group("bob", "bob's question");
        h.group("alice", "flood 1");
        h.group("alice", "flood 2");
        h.group("alice", "flood 3");
        assertEquals(Disposition.DROPPED_OLD, h.dispositions.of(bob));
    }

    @Test
    void afterARestart_aGroupsQueuedMessagesDrainAsTheyWouldHaveLive() {
        List<String> live = runFollowups(new GatewayHarness(queue(QueueMode.FOLLOWUP, 20, DropPolicy.OLD)), true);

        InMemoryJournal journal = new InMemoryJournal();
        ManualTime time = new ManualTime();
        GatewayHarness before = new GatewayHarness(queue(QueueMode.FOLLOWUP, 20, DropPolicy.OLD), CommandHandler.NONE,
                journal, time);
        runFollowups(before, false); // crash: nothing answered
        GatewayHarness after = new GatewayHarness(queue(QueueMode.FOLLOWUP, 20, DropPolicy.OLD), CommandHandler.NONE,
                journal, new ManualTime(time.instant().plusSeconds(30)));
        List<String> restored = complete(after);
        assertEquals(live, restored);
        assertEquals(List.of("run", "a1", "b1", "c1", "a2", "b2", "a3"), restored);
    }

    /** Sends a run and a group flood with two others; with {@code finish}, completes every turn. */
    private static List<String> runFollowups(GatewayHarness h, boolean finish) {
        h.group("alice", "run");
        h.group("alice", "a1");
        h.group("alice", "a2");
        h.group("bob", "b1");
        h.group("alice", "a3");
        h.group("carol", "c1");
        h.group("bob", "b2");
        return finish ? complete(h) : List.of();
    }

    private static List<String> complete(GatewayHarness h) {
        for (int turn = 0; turn < 7; turn++) {
            h.agent.run(turn).complete();
            h.advanceMillis(1000);
        }
        return h.agent.runs().stream().map(ScriptedRun::prompt).toList();
    }
}
