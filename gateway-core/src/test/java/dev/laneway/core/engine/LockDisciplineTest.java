package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.DropPolicy;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.Route;
import dev.laneway.core.SessionKey;
import dev.laneway.core.channel.ChannelAdapter;
import dev.laneway.core.channel.ChannelCapabilities;
import dev.laneway.core.channel.InboundSink;
import dev.laneway.core.lane.Lanes;
import dev.laneway.core.store.MessageJournal;
import dev.laneway.core.testing.ForwardingJournal;
import dev.laneway.core.testing.ManualTime;
import dev.laneway.core.testing.ScriptedAgent;
import dev.laneway.core.testing.TrampolineExecutor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The session lock's rule (SessionQueue's design comment): the only foreign call made with a
 * session lock held is {@code AgentRun.steer}. Channel calls (capabilities, sends, typing, the
 * per-message hooks), the journal and the metrics observer are all called with every session lock
 * released, through a run with typing refreshes, a steer, a cap rejection, a failure, an interrupt
 * and a stop. The outbox runs its drains on the calling thread, so a send or hook queued under a
 * lock would be caught here.
 */
class LockDisciplineTest {

    private final ManualTime time = new ManualTime();
    private final TrampolineExecutor executor = new TrampolineExecutor();
    private final ScriptedAgent agent = new ScriptedAgent();
    private final List<SessionQueue> queues = new CopyOnWriteArrayList<>();
    private final List<String> underLock = new CopyOnWriteArrayList<>();
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private EngineContext ctx;
    private long seq;

    /** Notes a foreign call, and whether a session lock was held when it came. */
    private void call(String what) {
        calls.add(what);
        if (queues.stream().anyMatch(SessionQueue::lockHeldByCurrentThread)) {
            underLock.add(what);
        }
    }

    private final ChannelAdapter channel = new ChannelAdapter() {
        @Override
        public String name() {
            return "test";
        }

        @Override
        public ChannelCapabilities capabilities() {
            call("capabilities");
            return new ChannelCapabilities(4096, true, Duration.ofSeconds(4), true, true);
        }

        @Override
        public void start(InboundSink sink) {
        }

        @Override
        public void send(Route route, String text) {
            call("send");
        }

        @Override
        public void typing(Route route) {
            call("typing");
        }

        @Override
        public void accepted(Route route) {
            call("accepted");
        }

        @Override
        public void settled(Route route) {
            call("settled");
        }

        @Override
        public void stop() {
        }
    };

    private final GatewayObserver observer = new GatewayObserver() {
        @Override
        public void recorded(InboundMessage message, Disposition disposition) {
            call("recorded");
        }

        @Override
        public void runFinished(String agentName, Duration waited, Duration duration, GatewayObserver.RunResult outcome) {
            call("runFinished");
        }

        @Override
        public void drainDelayed(Duration delay) {
            call("drainDelayed");
        }
    };

    private final MessageJournal journal = new ForwardingJournal(MessageJournal.NONE) {
        @Override
        public void settled(long sequence, boolean answered) {
            call("journal");
        }
    };

    private void accept(String text, QueueMode mode) {
        SessionKey key = SessionKey.of("test:dm:user");
        InboundMessage message = InboundMessage.builder("test").senderId("user").chatId("chat").text(text)
                .platformMessageId("m" + (++seq)).receivedAt(time.instant()).build();
        Ticket ticket = new Ticket(seq, message, false);
        ctx.settlement.accepted(ticket);
        QueueSettings settings = new QueueSettings(mode, Duration.ofSeconds(1), 2, DropPolicy.NEW);
        QueuedItem item = new QueuedItem(seq, List.of(ticket), text, settings, mode, true);
        while (!ctx.sessions.computeIfAbsent(key, k -> {
            SessionQueue queue = new SessionQueue(k, ctx);
            queues.add(queue);
            return queue;
        }).accept(item, Duration.ZERO, Duration.ZERO)) {
            Thread.onSpinWait();
        }
    }

    @Test
    void noChannelJournalOrObserverCallIsMadeUnderASessionLock() {
        ctx = new EngineContext(GatewaySettings.builder().failureRetries(0).build(), time, time, executor,
                new Lanes(Map.of(Lanes.MAIN, 4), time, Duration.ofSeconds(2)),
                new Outbox(executor, time, time, name -> channel, observer), new Admission(0, 4), AgentRoster.of(agent),
                Map.of("test", channel), observer, journal);

        accept("run", QueueMode.FOLLOWUP);
        time.advance(Duration.ofSeconds(4)); // typing refresh
        accept("steer", QueueMode.STEER);
        accept("queued 1", QueueMode.FOLLOWUP);
        accept("queued 2", QueueMode.FOLLOWUP);
        accept("rejected by the cap", QueueMode.FOLLOWUP);
        agent.run(0).seeSteers().complete("answer");
        time.advance(Duration.ofSeconds(1));
        agent.run(1).fail("boom", false);
        time.advance(Duration.ofSeconds(1));
        accept("interrupts", QueueMode.INTERRUPT);
        accept("queued 3", QueueMode.FOLLOWUP);
        ctx.sessions.get(SessionKey.of("test:dm:user")).stop();
        agent.openRuns().forEach(ScriptedAgent.ScriptedRun::complete);
        time.advance(Duration.ofSeconds(5));

        for (String expected : List.of("capabilities", "send", "typing", "accepted", "settled", "recorded", "runFinished",
                "drainDelayed", "journal")) {
            assertTrue(calls.contains(expected), expected + " was exercised: " + calls);
        }
        assertEquals(List.of(), underLock, "called with a session lock held");
    }
}
