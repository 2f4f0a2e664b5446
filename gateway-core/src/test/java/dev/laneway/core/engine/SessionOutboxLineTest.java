package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.DropPolicy;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
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
 * A session's line to its chat in the outbox (docs/decisions.md D244): its runs' replies go
 * through one line, which keeps the chat's outbox entry while the session rests; a run whose route
 * goes to another chat (one session for every DM, {@code dmScope: main}) moves the line there; and
 * the session's retirement closes it, so the entry leaves.
 */
class SessionOutboxLineTest {

    private final ManualTime time = new ManualTime();
    private final TrampolineExecutor executor = new TrampolineExecutor();
    private final ScriptedAgent agent = new ScriptedAgent();
    private final FakeChannel channel = new FakeChannel("test");
    private final Outbox outbox = new Outbox(executor, time, time, name -> channel, GatewayObserver.NONE);
    private final EngineContext ctx = new EngineContext(GatewaySettings.builder().failureRetries(0).build(), time, time,
            executor, new Lanes(Map.of(Lanes.MAIN, 4), time, Duration.ofSeconds(2)), outbox, new Admission(0, 4),
            AgentRoster.of(agent), Map.of("test", channel), GatewayObserver.NONE, MessageJournal.NONE);
    private final SessionKey key = SessionKey.of("dm:main");
    private long seq;

    /** A message from {@code chat} for the one session; returns its ticket. */
    private Ticket accept(String chat, String text) {
        InboundMessage message = InboundMessage.builder("test").senderId(chat).chatId(chat).text(text)
                .platformMessageId("m" + (++seq)).receivedAt(time.instant()).build();
        Ticket ticket = new Ticket(seq, message, false);
        ctx.settlement.accepted(ticket);
        QueueSettings settings = new QueueSettings(QueueMode.FOLLOWUP, Duration.ZERO, 20, DropPolicy.NEW);
        QueuedItem item = new QueuedItem(seq, List.of(ticket), text, settings, QueueMode.FOLLOWUP, true);
        while (!ctx.sessions.computeIfAbsent(key, k -> new SessionQueue(k, ctx)).accept(item, Duration.ZERO,
                Duration.ZERO)) {
            Thread.onSpinWait();
        }
        return ticket;
    }

    @Test
    void aSessionsRepliesGoThroughOneLine_whichKeepsTheEntryWhileItRests_andItsRetirementClosesIt() {
        Ticket first = accept("ann", "one");
        agent.lastRun().complete("answer one");
        assertEquals(Disposition.RAN, first.disposition());
        assertEquals(List.of("answer one"), channel.textsTo("ann"));
        assertEquals(1, outbox.entries(), "the resting session's line keeps its chat's entry");

        Ticket second = accept("ann", "two");
        agent.lastRun().complete("answer two");
        assertEquals(Disposition.RAN, second.disposition());
        assertEquals(List.of("answer one", "answer two"), channel.textsTo("ann"));
        assertEquals(1, outbox.entries());

        SessionQueue session = ctx.sessions.get(key);
        assertTrue(session.retireIfRestingSince(Long.MAX_VALUE));
        assertEquals(0, outbox.entries(), "the retired session's line is closed: the entry left");
        assertTrue(outbox.isIdle());
    }

    @Test
    void aRunToAnotherChat_movesTheSessionsLineThere() {
        accept("ann", "one");
        agent.lastRun().complete("to ann");
        accept("bob", "two");
        agent.lastRun().complete("to bob");
        assertEquals(List.of("to ann"), channel.textsTo("ann"));
        assertEquals(List.of("to bob"), channel.textsTo("bob"));
        assertEquals(1, outbox.entries(), "ann's line was closed when bob's was opened");

        assertTrue(ctx.sessions.get(key).retireIfRestingSince(Long.MAX_VALUE));
        assertEquals(0, outbox.entries());
    }
}
