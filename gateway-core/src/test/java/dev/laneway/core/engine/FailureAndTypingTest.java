package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.testing.GatewayHarness;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Failed turns (docs/behaviour.md §5.7) and the typing indicator (§2). */
class FailureAndTypingTest {

    @Test
    void aRetryableFailure_isRetriedWithExponentialBackoff_thenReported_andLaterItemsStillRun() {
        GatewayHarness h = new GatewayHarness();
        String id = h.dm("question");
        h.dm("queued");
        h.agent.run(0).fail("HTTP 503", true);
        h.advanceMillis(999);
        assertEquals(1, h.agent.runs().size());
        h.advanceMillis(1);
        assertEquals(2, h.agent.runs().size(), "first retry after 1 s");
        assertEquals(2, h.agent.run(1).request().attempt());
        h.agent.run(1).fail("HTTP 503", true);
        h.advanceMillis(1999);
        assertEquals(2, h.agent.runs().size());
        h.advanceMillis(1);
        assertEquals("question", h.agent.run(2).prompt(), "second retry after 2 s");
        h.agent.run(2).fail("HTTP 503", true);
        assertEquals(List.of("⚠️ Sorry, something went wrong while answering. (HTTP 503)"), h.channel.texts());
        assertEquals(Disposition.RAN, h.dispositions.of(id));
        h.advanceMillis(1000);
        assertTrue(h.agent.run(3).prompt().endsWith("queued"), "later queued items still run");
    }

    @Test
    void aRunThatAlreadyDeliveredText_isNeverRetried() {
        GatewayHarness h = new GatewayHarness();
        h.dm("question");
        h.agent.run(0).reply("partial answer").fail("connection reset", true);
        h.advance(Duration.ofSeconds(10));
        assertEquals(1, h.agent.runs().size());
        assertEquals(List.of("partial answer", "⚠️ Sorry, something went wrong while answering. (connection reset)"),
                h.channel.texts());
    }

    @Test
    void aNonRetryableFailure_isReportedAtOnce() {
        GatewayHarness h = new GatewayHarness();
        h.dm("question");
        h.agent.run(0).fail("exit code 3", false);
        assertEquals(List.of("⚠️ Sorry, something went wrong while answering. (exit code 3)"), h.channel.texts());
        assertEquals(0, h.gateway.busySessions());
    }

    @Test
    void typing_startsOnAccept_evenWhileWaitingForALane_andIsRefreshedUntilTheRunEnds() {
        GatewayHarness h = new GatewayHarness(s -> s.mainMaxConcurrent(1));
        h.send(h.message("other").chatId("other").senderId("other"));
        h.dm("waits for main");
        assertEquals(2, h.channel.typing().size(), "typing shown at once for both, though one waits");
        h.advance(Duration.ofSeconds(4));
        assertEquals(4, h.channel.typing().size(), "refreshed every 4 s for both sessions");
        h.agent.run(0).complete();
        h.advance(Duration.ofSeconds(4));
        assertEquals(5, h.channel.typing().size(), "only the waiting session still types");
        h.agent.run(1).complete();
        h.advance(Duration.ofSeconds(20));
        assertEquals(5, h.channel.typing().size(), "no typing once idle");
        assertEquals(0, h.time.pendingTasks(), "no timers left behind");
    }

    @Test
    void typing_keepsTheActiveRunsThread_whenAnotherThreadOfTheSameSessionPosts() {
        GatewayHarness h = new GatewayHarness(s -> s.sessionScope(new dev.laneway.core.SessionScope(
                dev.laneway.core.SessionScope.DmScope.PER_PEER, dev.laneway.core.SessionScope.GroupScope.CHAT)));
        h.send(h.message("run").direct(false).chatId("g").threadId("t1"));
        h.send(h.message("later").direct(false).chatId("g").threadId("t2"));
        assertEquals(List.of("t1", "t2"), threads(h), "shown at once in each thread");
        h.channel.clear();
        h.advance(Duration.ofSeconds(4));
        assertEquals(List.of("t1", "t2"), threads(h), "the run in t1 keeps its indicator; t2 waits and shows one too");
        h.agent.run(0).complete();
        h.advance(Duration.ofSeconds(1));
        assertEquals("t2", h.agent.run(1).request().route().threadId());
        h.channel.clear();
        h.advance(Duration.ofSeconds(3));
        assertEquals(List.of("t2"), threads(h), "t1 has no work left");
    }

    private static List<String> threads(GatewayHarness h) {
        return h.channel.typing().stream().map(dev.laneway.core.Route::threadId).toList();
    }
}
