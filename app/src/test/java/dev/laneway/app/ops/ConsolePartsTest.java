package dev.laneway.app.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.scheduling.PriorityClass;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The console's parts on their own (docs/behaviour.md §18): the disposition ring (bounded, read on
 * from a sequence number), the chart history (per-second deltas and mean waits, bounded), the admin
 * token check and the query parser.
 */
class ConsolePartsTest {

    private static final Instant T0 = Instant.parse("2026-03-02T10:00:00Z");

    private final ManualTime time = new ManualTime(T0);

    private static InboundMessage message(String text) {
        return InboundMessage.builder("test").text(text).chatId("chat").senderId("u1").senderName("Ann")
                .platformMessageId(text).receivedAt(T0).build();
    }

    @Test
    void theFeed_keepsTheLast200_readsOnFromASequenceNumber_andWakesOnEachDisposition() {
        DispositionFeed feed = new DispositionFeed(time);
        AtomicInteger wakes = new AtomicInteger();
        feed.onRecorded(wakes::incrementAndGet);
        assertEquals(0, feed.last());
        assertEquals(List.of(), feed.after(0));

        feed.recorded(message("m1"), Disposition.RAN);
        DispositionFeed.Entry first = feed.after(0).getFirst();
        assertEquals(new DispositionFeed.Entry(1, T0.toEpochMilli(), T0.toEpochMilli(), "test", "chat", "Ann", "RAN", "m1"),
                first);
        assertNull(first.withoutText().text());

        for (int i = 2; i <= 450; i++) {
            feed.recorded(message("m" + i), Disposition.COLLECTED);
        }
        assertEquals(450, wakes.get());
        assertEquals(450, feed.total());
        assertEquals(450, feed.last());
        List<DispositionFeed.Entry> kept = feed.after(0);
        assertEquals(DispositionFeed.CAPACITY, kept.size(), "only the last 200");
        assertEquals(251, kept.getFirst().seq());
        assertEquals("m450", kept.getLast().text());
        assertEquals(List.of(449L, 450L), feed.after(448).stream().map(DispositionFeed.Entry::seq).toList());
        assertEquals(List.of(), feed.after(450));
    }

    @Test
    void theHistory_takesPerSecondDeltas_andTheMeanQueueWait_andKeepsTheLast300Points() {
        DispositionFeed feed = new DispositionFeed(time);
        MetricsObserver metrics = new MetricsObserver(List.of("test"), List.of("a"));
        ConsoleHistory history = new ConsoleHistory(time, feed, metrics.registry());
        feed.recorded(message("m1"), Disposition.RAN);
        metrics.granted(PriorityClass.INTERACTIVE, PriorityClass.INTERACTIVE, "t", Duration.ofMillis(100), Duration.ZERO);
        metrics.granted(PriorityClass.BACKGROUND, PriorityClass.BACKGROUND, "t", Duration.ofMillis(300), Duration.ZERO);
        time.advance(Duration.ofSeconds(1));
        history.sample();
        ConsoleHistory.Point point = history.points().getFirst();
        assertEquals(1, point.messages(), "counted since start");
        assertEquals(2, point.runs());
        assertEquals(200.0, point.queueWaitMs(), 0.001);

        time.advance(Duration.ofSeconds(1));
        history.sample();
        assertEquals(new ConsoleHistory.Point(T0.plusSeconds(2).toEpochMilli(), 0, 0, 0), history.points().get(1),
                "a quiet second");
        for (int i = 0; i < 400; i++) {
            time.advance(Duration.ofSeconds(1));
            history.sample();
        }
        List<ConsoleHistory.Point> points = history.points();
        assertEquals(ConsoleHistory.POINTS, points.size());
        assertEquals(T0.plusSeconds(402).toEpochMilli(), points.getLast().at());
        assertEquals(T0.plusSeconds(103).toEpochMilli(), points.getFirst().at(), "oldest first");
    }

    @Test
    void theAdminToken_grantsOnlyTheExactToken_asABearerHeader() {
        AdminToken token = AdminToken.of("0123456789abcdef-token");
        assertTrue(token.configured());
        assertEquals(AdminToken.Check.GRANTED, token.check("Bearer 0123456789abcdef-token"));
        assertEquals(AdminToken.Check.GRANTED, token.check("bearer 0123456789abcdef-token "), "the scheme is case-insensitive");
        assertEquals(AdminToken.Check.WRONG, token.check("Bearer 0123456789abcdef-toke"));
        assertEquals(AdminToken.Check.WRONG, token.check("Bearer 0123456789abcdef-token2"));
        assertEquals(AdminToken.Check.WRONG, token.check("Bearer "));
        assertEquals(AdminToken.Check.MISSING, token.check(null));
        assertEquals(AdminToken.Check.MISSING, token.check("Basic dXNlcjpwYXNz"));
        assertEquals(AdminToken.Check.MISSING, token.check("0123456789abcdef-token"));
        assertEquals("***", token.toString());
        assertFalse(AdminToken.of("").configured());
        assertEquals(AdminToken.Check.OFF, AdminToken.NONE.check("Bearer anything"));
    }

    @Test
    void queryParameters_areDecoded_andTheFirstOfARepeatedNameWins() {
        assertEquals(Map.of("session", "telegram:group:-100/7 x", "id", ""),
                AdminActions.params("session=telegram%3Agroup%3A-100%2F7+x&id&session=other"));
        assertEquals(Map.of(), AdminActions.params(null));
    }
}
