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
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A crash in steer modes answers nothing twice (docs/behaviour.md §9): a run that answered and went on
 * (one more model call for the steers that came meanwhile) has its messages and the steers it
 * answered recorded as answered when each reply goes out, not only when the run ends; and a
 * restored steer-backlog message is a followup only.
 */
class SteerRestartTest {

    private final InMemoryJournal journal = new InMemoryJournal();

    private GatewayHarness start(QueueMode mode, ManualTime time) {
        QueueSettings settings = new QueueSettings(mode, Duration.ofSeconds(1), 20, DropPolicy.SUMMARIZE);
        return new GatewayHarness(s -> s.queueDefaults(settings), CommandHandler.NONE, journal, time);
    }

    private List<String> pendingIds() {
        return journal.pending().stream().map(entry -> entry.message().platformMessageId()).toList();
    }

    @Test
    void aRunThatAnsweredAndWentOn_andTheSteerItAnswered_areNotRunAgainAfterACrash() {
        GatewayHarness before = start(QueueMode.STEER, new ManualTime());
        before.dm("A1");
        before.dm("B1");
        assertEquals(List.of("B1"), before.agent.run(0).steerTexts());
        before.agent.run(0).reply("answer to A1");               // the model's final answer to A1 ...
        before.agent.run(0).replyAnsweringSteers("answer to B1"); // ... then one more call, with B1
        before.dm("C1");                                          // steers in while the run goes on
        assertEquals(List.of("B1", "C1"), before.agent.run(0).steerTexts());
        assertEquals(List.of("answer to A1", "answer to B1"), before.channel.texts());
        assertEquals(List.of("m3"), pendingIds(), "A1 and B1 were answered; only C1 waits for its answer");
        // crash: the run is still going on (a model call with C1)

        GatewayHarness after = start(QueueMode.STEER, new ManualTime(before.time.instant().plusSeconds(5)));
        assertEquals(List.of("C1"), after.agent.prompts(), "neither A1 nor B1 is answered again; C1 runs alone");
        after.agent.run(0).complete("answer to C1");
        assertEquals(List.of(), journal.pending());
    }

    @Test
    void anAnswerStillInTheOutboxAtTheCrash_isNotCountedYet() {
        GatewayHarness before = start(QueueMode.STEER, new ManualTime());
        before.dm("A1");
        before.dm("B1");
        before.outbox.pause();
        before.agent.run(0).replyAnsweringSteers("answer to A1 and B1");
        assertEquals(List.of("m1", "m2"), pendingIds(), "counted only once the answer went out");
        // crash before the answer was sent

        GatewayHarness after = start(QueueMode.STEER, new ManualTime(before.time.instant().plusSeconds(5)));
        assertEquals(List.of("A1"), after.agent.prompts());
        assertEquals(List.of("B1"), after.agent.run(0).steerTexts(), "B1 is restored as the steer it was");
    }

    @Test
    void aSteerTheModelHadNotAnswered_runsAgainAfterTheCrash() {
        GatewayHarness before = start(QueueMode.STEER, new ManualTime());
        before.dm("A1");
        before.dm("B1");
        before.agent.run(0).reply("answer to A1"); // B1 not seen by this answer; the run goes on with it
        assertEquals(List.of("m2"), pendingIds());

        GatewayHarness after = start(QueueMode.STEER, new ManualTime(before.time.instant().plusSeconds(5)));
        assertEquals(List.of("B1"), after.agent.prompts(), "A1 is not answered again; B1 never was");
    }

    @Test
    void aSteerAnsweredByAReply_endsAsSteered_evenIfTheRunFailsAfterwards() {
        GatewayHarness h = start(QueueMode.STEER, new ManualTime());
        String a1 = h.dm("A1");
        String b1 = h.dm("B1");
        h.agent.run(0).replyAnsweringSteers("answer to A1 and B1");
        h.agent.run(0).fail("HTTP 500", false);
        h.advance(Duration.ofSeconds(5));
        assertEquals(1, h.agent.runs().size(), "B1 is not run again as a followup");
        assertEquals(Disposition.RAN, h.dispositions.of(a1));
        assertEquals(Disposition.STEERED, h.dispositions.of(b1));
        assertEquals(List.of(), journal.pending());
    }

    @Test
    void aRestoredSteerBacklogMessage_isAFollowupOnly_itDoesNotSteerTheRestoredRun() {
        GatewayHarness before = start(QueueMode.STEER_BACKLOG, new ManualTime());
        before.dm("A1");
        before.dm("B1");
        assertEquals(List.of("B1"), before.agent.run(0).steerTexts(), "steered and kept as a followup");
        // crash before the run answered anything: both pending

        GatewayHarness after = start(QueueMode.STEER_BACKLOG, new ManualTime(before.time.instant().plusSeconds(5)));
        assertEquals(List.of("A1"), after.agent.prompts());
        assertTrue(after.agent.run(0).steerTexts().isEmpty(), "B1 does not steer the restored run");
        after.agent.run(0).complete("answer to A1");
        after.advance(Duration.ofSeconds(2));
        assertEquals(List.of("A1", "B1"), after.agent.prompts(), "B1 gets its own backlog turn, once");
        after.agent.run(1).complete("answer to B1");
        assertEquals(List.of(), journal.pending());
    }

    @Test
    void aSteerBacklogMessageAnsweredAsASteer_keepsItsBacklogTurnAfterACrash() {
        GatewayHarness before = start(QueueMode.STEER_BACKLOG, new ManualTime());
        before.dm("A1");
        before.dm("B1");
        before.agent.run(0).replyAnsweringSteers("answer to A1 and B1");
        assertEquals(List.of("m2"), pendingIds(), "A1 is answered; B1's backlog turn is still owed");

        GatewayHarness after = start(QueueMode.STEER_BACKLOG, new ManualTime(before.time.instant().plusSeconds(5)));
        assertEquals(List.of("B1"), after.agent.prompts());
    }
}
