package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.testing.GatewayHarness;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Debounce, maxWait and no overtaking (docs/behaviour.md §5.1). */
class DrainTimingTest {

    private static GatewayHarness harness(long debounceMs, Duration maxWait) {
        return new GatewayHarness(s -> s.queueMaxWait(maxWait)
                .queueDefaults(new QueueSettings(QueueMode.COLLECT, Duration.ofMillis(debounceMs), 20, DropPolicy.SUMMARIZE)));
    }

    @Test
    void debounce_eachQueuedMessagePushesTheDeadline() {
        GatewayHarness h = harness(1000, null);
        h.dm("run");
        h.agent.run(0).complete();
        h.dm("a");
        h.advanceMillis(800);
        assertEquals(2, h.agent.runs().size(), "idle again: 'a' started a run of its own");
        h.dm("b");
        h.agent.run(1).complete();
        h.advanceMillis(900);
        h.dm("c");
        h.advanceMillis(900);
        assertEquals(2, h.agent.runs().size(), "c pushed the deadline to 1000 ms after it");
        h.advanceMillis(100);
        assertEquals(3, h.agent.runs().size());
        assertEquals(2, h.agent.run(2).prompt().split("---").length - 1, "b and c in one batch");
    }

    @Test
    void maxWait_boundsTheTotalWaitFromTheFirstQueuedMessage() {
        GatewayHarness h = harness(1000, Duration.ofMillis(2500));
        h.dm("run");
        h.agent.run(0).complete();
        h.dm("busy");
        h.agent.run(1).complete();
        // session now draining nothing; start a new run and queue behind it
        h.dm("x");
        h.dm("q1");
        h.agent.run(2).complete();
        for (int i = 0; i < 5; i++) {
            h.advanceMillis(600);
            h.dm("more " + i);
        }
        // 3000 ms after q1 was queued at t0; maxWait 2500 fired at t0+2500
        assertEquals(4, h.agent.runs().size(), "drained at maxWait despite new messages pushing the debounce");
    }

    @Test
    void maxWait_defaultsToTenTimesTheDebounce() {
        GatewayHarness h = harness(100, null);
        h.dm("run");
        h.dm("queued");
        h.agent.run(0).complete();
        for (int i = 0; i < 10; i++) {
            h.advanceMillis(90);
            h.dm("more " + i);
        }
        h.advanceMillis(99);
        assertEquals(1, h.agent.runs().size());
        h.advanceMillis(1);
        assertEquals(2, h.agent.runs().size(), "drained 1000 ms (10 x 100) after the first queued message");
    }

    @Test
    void debounceZero_drainsAsSoonAsTheRunEnds() {
        GatewayHarness h = harness(0, null);
        h.dm("run");
        h.dm("queued");
        h.agent.run(0).complete();
        assertEquals(2, h.agent.runs().size());
    }

    @Test
    void noOvertaking_aMessageArrivingDuringAPendingDrainJoinsTheQueue() {
        GatewayHarness h = harness(1000, null);
        h.dm("run");
        h.dm("queued");
        h.agent.run(0).complete();
        h.advanceMillis(500);
        h.dm("newcomer");
        assertEquals(1, h.agent.runs().size(), "the newcomer must not run ahead of the queued message");
        h.advanceMillis(1000);
        assertEquals(2, h.agent.runs().size());
        String prompt = h.agent.run(1).prompt();
        assertEquals(true, prompt.indexOf("queued") < prompt.indexOf("newcomer"), prompt);
    }

    @Test
    void followupDrain_debouncesOnlyBeforeTheFirstTurn_laterItemsFollowEachRun() {
        GatewayHarness h = new GatewayHarness(s -> s.queueDefaults(
                new QueueSettings(QueueMode.FOLLOWUP, Duration.ofSeconds(1), 20, DropPolicy.SUMMARIZE)));
        h.dm("run");
        h.dm("one");
        h.dm("two");
        h.agent.run(0).complete();
        h.advanceMillis(1000);
        h.agent.run(1).complete();
        assertEquals("two", h.agent.run(2).prompt());
    }
}
