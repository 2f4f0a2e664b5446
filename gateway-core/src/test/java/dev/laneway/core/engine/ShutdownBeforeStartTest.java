package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.SessionKey;
import dev.laneway.core.lane.Lanes;
import dev.laneway.core.store.MessageJournal;
import dev.laneway.core.testing.FakeChannel;
import dev.laneway.core.testing.ManualTime;
import dev.laneway.core.testing.ScriptedAgent;
import dev.laneway.core.testing.TrampolineExecutor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Once a graceful shutdown has begun no new run starts (Gateway.shutdown), also for a run that was
 * already waiting for a lane: it gives its permits back and its messages stay pending for the
 * restart. Drives two session queues directly, so the moment shutdown begins is exact.
 */
class ShutdownBeforeStartTest {

    private final ManualTime time = new ManualTime();
    private final TrampolineExecutor executor = new TrampolineExecutor();
    private final ScriptedAgent agent = new ScriptedAgent();
    private final FakeChannel channel = new FakeChannel("test");
    private final GatewaySettings settings = GatewaySettings.builder().mainMaxConcurrent(1).build();
    private final Lanes lanes = new Lanes(Map.of(Lanes.MAIN, 1), time, Duration.ofSeconds(2));
    private final EngineContext ctx = new EngineContext(settings, time, time, executor, lanes,
            new Outbox(executor, time, time, name -> channel, GatewayObserver.NONE), new Admission(0, 1), AgentRoster.of(agent),
            Map.of("test", channel), GatewayObserver.NONE, MessageJournal.NONE);
    private long seq;

    private Ticket accept(String sender, String text) {
        SessionKey key = SessionKey.of("test:dm:" + sender);
        InboundMessage message = InboundMessage.builder("test").senderId(sender).chatId(sender).text(text)
                .platformMessageId("m" + (++seq)).receivedAt(time.instant()).build();
        Ticket ticket = new Ticket(seq, message, false);
        QueuedItem item = new QueuedItem(seq, List.of(ticket), text, settings.queueDefaults(),
                settings.queueDefaults().mode(), true);
        ctx.sessions.computeIfAbsent(key, k -> new SessionQueue(k, ctx)).accept(item, Duration.ZERO, Duration.ZERO);
        return ticket;
    }

    /** Slots in use in {@code lane}; a session's lane is its queue's (docs/architecture.md §5). */
    private int active(String lane) {
        if (lane.startsWith("session:")) {
            SessionQueue queue = ctx.sessions.get(SessionKey.of(lane.substring("session:".length())));
            return queue == null ? 0 : queue.sessionLane().active();
        }
        return lanes.snapshot(lane).active();
    }

    @Test
    void aRunWaitingForMain_thatGetsItsPermitDuringShutdown_startsNoAgent_andStaysPending() {
        Ticket running = accept("a", "running");
        Ticket waiting = accept("b", "waiting for main");
        assertEquals(1, agent.runs().size());

        ctx.stopping = true;
        agent.run(0).complete("done");

        assertEquals(Disposition.RAN, running.disposition());
        assertEquals(1, agent.runs().size(), "no new run starts once stopping");
        assertNull(waiting.disposition(), "not settled: it stays pending in the journal and runs after the restart");
        assertFalse(ctx.sessions.get(SessionKey.of("test:dm:b")).hasActiveRun(), "shutdown does not wait for it");
        assertEquals(0, active(Lanes.MAIN));
        assertEquals(0, active("session:test:dm:b"));
    }

    @Test
    void aRunWhoseAgentStartWasStillQueued_whenShutdownBegan_startsNoAgent_andGivesBothPermitsBack() {
        executor.pause();
        Ticket held = accept("a", "granted, not started");
        ctx.stopping = true;
        executor.resume();

        assertEquals(List.of(), agent.runs());
        assertNull(held.disposition());
        assertEquals(0, active(Lanes.MAIN));
        assertEquals(0, active("session:test:dm:a"));
    }
}
