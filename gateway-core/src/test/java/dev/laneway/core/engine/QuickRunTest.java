package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.agent.Agent;
import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.agent.RunEvents;
import dev.laneway.core.agent.RunOutcome;
import dev.laneway.core.agent.RunRequest;
import dev.laneway.core.agent.SteerMessage;
import dev.laneway.core.agent.SteerResult;
import dev.laneway.core.lane.LaneSnapshot;
import dev.laneway.core.lane.Lanes;
import dev.laneway.core.store.InMemoryJournal;
import dev.laneway.core.testing.FakeChannel;
import dev.laneway.core.testing.ForwardingJournal;
import dev.laneway.core.testing.ManualTime;
import dev.laneway.core.testing.RecordingListener;
import dev.laneway.core.testing.TrampolineExecutor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/**
 * A run whose agent answers and completes before its {@code start} returns (as a quick model, or
 * the benchmarks' agent, does): its completion is taken as it is, with no callback wired, and the
 * record of what its answer answered rides behind the answer in the outbox, so its end queues no
 * second one. What the user and the journal see is what every run gets (docs/behaviour.md §2,
 * docs/architecture.md §7): the answer, then one answered record, written only once the answer went
 * out; a completion that failed is the agent error it always was.
 */
class QuickRunTest {

    private final ManualTime time = new ManualTime();
    private final TrampolineExecutor executor = new TrampolineExecutor();
    private final TrampolineExecutor outbox = new TrampolineExecutor();
    private final FakeChannel channel = new FakeChannel("test");
    private final RecordingListener dispositions = new RecordingListener();
    private final InMemoryJournal stored = new InMemoryJournal();
    private final List<String> records = Collections.synchronizedList(new ArrayList<>());
    private final ForwardingJournal journal = new ForwardingJournal(stored) {
        @Override
        public void settled(long seq, boolean answered) {
            records.add(seq + (answered ? " answered" : " unanswered"));
            super.settled(seq, answered);
        }
    };

    private Gateway gateway(Agent agent) {
        Gateway gateway = Gateway.builder()
                .settings(GatewaySettings.builder().mainMaxConcurrent(1).build())
                .clock(time)
                .scheduler(time)
                .executor(executor)
                .outboxExecutor(outbox)
                .agent(agent)
                .listener(dispositions)
                .journal(journal)
                .channel(channel)
                .build();
        gateway.start();
        return gateway;
    }

    private String send(Gateway gateway, String id, String text) {
        gateway.accept(InboundMessage.builder("test").platformMessageId(id).text(text).receivedAt(time.instant()).build());
        return id;
    }

    @Test
    void anAnswerGivenDuringStart_goesOut_thenItsMessageIsRecordedAnsweredOnce_andEverySlotIsFree() {
        Gateway gateway = gateway(new QuickAgent("hello back", CompletableFuture.completedFuture(RunOutcome.Completed.clean())));
        outbox.pause();
        String id = send(gateway, "m1", "hello");

        assertEquals(Disposition.RAN, dispositions.of(id), "the run ended on its own completion, taken as it was");
        assertEquals(List.of(), channel.texts(), "the answer waits in the paused outbox");
        assertEquals(List.of(), records, "answered only once the answer went out");
        assertNull(stored.answered(1));

        outbox.resume();
        assertEquals(List.of("hello back"), channel.texts(), "no empty-answer notice: it answered");
        assertEquals(List.of("1 answered"), records, "one record, behind the answer, not a second one from the run's end");
        assertEquals(0, gateway.busySessions());
        assertEquals(0, gateway.pendingMessages());
        assertEquals(0, gateway.lanes().stream().mapToInt(LaneSnapshot::active).sum(), "every lane slot is free");
    }

    @Test
    void aCompletionThatFailedBeforeStartReturned_isAnAgentError_asAWiredOneWouldBe() {
        Gateway gateway = gateway(new QuickAgent(null, CompletableFuture.failedFuture(new IllegalStateException("boom"))));
        String id = send(gateway, "m1", "hello");

        assertEquals(List.of("⚠️ Sorry, something went wrong while answering. (agent error)"), channel.texts());
        assertEquals(Disposition.RAN, dispositions.of(id));
        assertEquals(List.of("1 answered"), records, "a failure notice answers it, as before");
        assertEquals(0, gateway.busySessions());
        assertEquals(0, gateway.lanes().stream().filter(lane -> lane.name().equals(Lanes.MAIN))
                .mapToInt(LaneSnapshot::active).sum());
    }

    @Test
    void quickRunsOfOneSession_runOneAtATime_eachAnsweredAndRecordedInOrder() {
        Gateway gateway = gateway(new QuickAgent("ok", CompletableFuture.completedFuture(RunOutcome.Completed.clean())));
        for (int i = 1; i <= 5; i++) {
            send(gateway, "m" + i, "message " + i);
        }
        assertEquals(List.of("ok", "ok", "ok", "ok", "ok"), channel.texts());
        assertEquals(List.of("1 answered", "2 answered", "3 answered", "4 answered", "5 answered"), records);
        assertTrue(dispositions.entries().stream().allMatch(entry -> entry.disposition() == Disposition.RAN));
        assertEquals(0, gateway.busySessions());
    }

    /** Answers {@code reply} (unless null) from {@code start} and hands back a completion already done. */
    private record QuickAgent(String reply, CompletableFuture<RunOutcome> completion) implements Agent {

        @Override
        public String name() {
            return "quick";
        }

        @Override
        public AgentRun start(RunRequest request, RunEvents events) {
            if (reply != null) {
                events.reply(reply);
            }
            return new AgentRun() {
                @Override
                public CompletionStage<RunOutcome> completion() {
                    return completion;
                }

                @Override
                public SteerResult steer(List<SteerMessage> messages) {
                    return SteerResult.REFUSED;
                }

                @Override
                public void abort() {
                }
            };
        }
    }
}
