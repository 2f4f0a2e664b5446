package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.laneway.core.SessionKey;
import dev.laneway.core.lane.LaneSnapshot;
import dev.laneway.core.lane.Lanes;
import dev.laneway.core.testing.GatewayHarness;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The session lane {@code session:<key>} (cap 1) as {@code /status} and the gateway's lane list
 * show it (docs/behaviour.md §2): its one slot is in use while the session's run waits for
 * {@code main}, starts or runs, free while the run waits to retry and once it has ended. The slot
 * is the session's one active run, not a lane object (docs/decisions.md D89).
 */
class SessionLaneTest {

    private static final SessionKey ANN = SessionKey.of("test:dm:ann");
    private static final SessionKey BOB = SessionKey.of("test:dm:bob");

    private final GatewayHarness h = new GatewayHarness(s -> s.mainMaxConcurrent(1).failureRetries(1)
            .retryBackoff(Duration.ofSeconds(2)));

    private LaneSnapshot statusLane(SessionKey session, String name) {
        return h.gateway.status(session, "test").lanes().stream().filter(lane -> lane.name().equals(name))
                .findFirst().orElseThrow();
    }

    private List<String> listedSessionLanes() {
        return h.gateway.lanes().stream().map(LaneSnapshot::name).filter(name -> name.startsWith("session:")).toList();
    }

    private void message(String sender, String text) {
        h.send(h.message(text).senderId(sender).chatId(sender));
    }

    @Test
    void aSessionsSlotIsInUse_whileItsRunWaitsForMainOrRuns_andFreeWhileItWaitsToRetry() {
        assertEquals(new LaneSnapshot("session:test:dm:ann", 1, 0, 0), statusLane(ANN, "session:test:dm:ann"),
                "an idle session's lane: its slot free");

        message("ann", "first");
        message("bob", "second");
        assertEquals(1, h.agent.runs().size(), "bob's run waits for the one main slot");
        assertEquals(new LaneSnapshot("session:test:dm:ann", 1, 1, 0), statusLane(ANN, "session:test:dm:ann"));
        assertEquals(new LaneSnapshot("session:test:dm:bob", 1, 1, 0), statusLane(BOB, "session:test:dm:bob"),
                "waiting for main, bob's run holds its session's slot");
        assertEquals(new LaneSnapshot(Lanes.MAIN, 1, 1, 1), statusLane(BOB, Lanes.MAIN));
        assertEquals(List.of("session:test:dm:ann", "session:test:dm:bob"), listedSessionLanes());
        List<String> all = h.gateway.lanes().stream().map(LaneSnapshot::name).toList();
        assertEquals(List.of("session:test:dm:ann", "session:test:dm:bob"), all.subList(all.size() - 2, all.size()),
                "after the configured lanes");

        h.agent.run(0).fail("overloaded", true);
        assertEquals(new LaneSnapshot("session:test:dm:ann", 1, 0, 0), statusLane(ANN, "session:test:dm:ann"),
                "waiting to retry, ann's run gave both slots back");
        assertEquals(List.of("session:test:dm:bob"), listedSessionLanes());
        assertEquals(2, h.agent.runs().size(), "main went to bob");

        h.agent.run(1).complete("done");
        assertEquals(List.of(), listedSessionLanes(), "bob's session ended, and ann's run has no slot while it waits");
        h.advance(Duration.ofSeconds(2));
        assertEquals(3, h.agent.runs().size(), "ann's retry got both slots again");
        assertEquals(new LaneSnapshot("session:test:dm:ann", 1, 1, 0), statusLane(ANN, "session:test:dm:ann"));

        h.agent.run(2).complete("done");
        assertEquals(new LaneSnapshot("session:test:dm:ann", 1, 0, 0), statusLane(ANN, "session:test:dm:ann"));
        assertEquals(List.of(), listedSessionLanes());
        assertEquals(0, h.gateway.busySessions());
    }
}
