package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.DropPolicy;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A group queue's round robin across senders and its counts (docs/behaviour.md §5.3, §5.4). */
class SenderRotationTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    private static QueuedItem item(long seq, String sender) {
        InboundMessage message = InboundMessage.builder("test").chatId("group").senderId(sender).senderName(sender)
                .text(sender + seq).receivedAt(NOW).direct(false).build();
        QueueSettings settings = new QueueSettings(QueueMode.FOLLOWUP, Duration.ZERO, 100, DropPolicy.OLD);
        return new QueuedItem(seq, List.of(new Ticket(seq, message, false)), sender + seq, settings, QueueMode.FOLLOWUP,
                false);
    }

    private static String key(String sender) {
        return item(0, sender).senderKey();
    }

    private static List<String> drain(SenderRotation rotation) {
        List<String> taken = new ArrayList<>();
        while (!rotation.isEmpty()) {
            taken.add(rotation.takeNext().text());
        }
        return taken;
    }

    @Test
    void sendersTakeTurns_theOneWhoHasWaitedLongestFirst_eachInTheirOwnOrder() {
        SenderRotation rotation = new SenderRotation();
        rotation.add(item(1, "a"));
        rotation.add(item(2, "a"));
        rotation.add(item(3, "a"));
        rotation.add(item(4, "b"));
        rotation.add(item(5, "c"));
        rotation.add(item(6, "b"));
        assertEquals("a1", rotation.peekNext().text());
        assertEquals(List.of("a1", "b4", "c5", "a2", "b6", "a3"), drain(rotation));
    }

    @Test
    void aSenderLeftWithNothingQueued_joinsAgainAtTheBack() {
        SenderRotation rotation = new SenderRotation();
        rotation.add(item(1, "a"));
        rotation.add(item(2, "b"));
        rotation.add(item(3, "c"));
        assertEquals("a1", rotation.takeNext().text()); // a has nothing left
        assertEquals("b2", rotation.takeOldestOf(key("b")).text()); // b's only item dropped
        rotation.add(item(4, "b"));
        rotation.add(item(5, "a"));
        assertEquals(List.of("c3", "b4", "a5"), drain(rotation));
    }

    @Test
    void theOldestAndTheNewestAreTakenAcrossSenders_andTheArrivalOrderStaysWhole() {
        SenderRotation rotation = new SenderRotation();
        for (int i = 1; i <= 6; i++) {
            rotation.add(item(i, i % 2 == 0 ? "b" : "a"));
        }
        assertEquals("a1", rotation.takeOldest().text());
        assertEquals("b6", rotation.takeNewestOf(key("b")).text());
        assertEquals("a3", rotation.takeOldestOf(key("a")).text());
        assertEquals(List.of("b2", "b4", "a5"), rotation.inArrivalOrder().stream().map(QueuedItem::text).toList());
        assertEquals("a5", rotation.newest().text());
        assertEquals(List.of("a5", "b2", "b4"), drain(rotation), "a kept their place: they held an item throughout");
        assertNull(rotation.newest());
    }

    @Test
    void theSenderHoldingTheMost_isKnownAfterEveryChange() {
        SenderRotation rotation = new SenderRotation();
        assertEquals(0, rotation.most());
        assertNull(rotation.mostQueued());
        rotation.add(item(1, "a"));
        rotation.add(item(2, "b"));
        rotation.add(item(3, "b"));
        assertEquals(2, rotation.most());
        assertEquals(key("b"), rotation.mostQueued());
        rotation.add(item(4, "a"));
        rotation.add(item(5, "a"));
        assertEquals(3, rotation.most());
        assertEquals(key("a"), rotation.mostQueued());
        assertEquals(3, rotation.countOf(key("a")));
        rotation.takeNext(); // a1
        rotation.takeNewestOf(key("a")); // a5
        assertEquals(2, rotation.most());
        rotation.takeNext(); // b2
        rotation.takeNext(); // a4
        rotation.takeNext(); // b3
        assertEquals(0, rotation.most());
        assertEquals(0, rotation.countOf(key("a")));
        assertTrue(rotation.isEmpty());
    }

    @Test
    void anItemPutBack_goesToItsArrivalPosition_amongItsSendersItemsAndOverall() {
        SenderRotation rotation = new SenderRotation();
        rotation.add(item(2, "a"));
        rotation.add(item(4, "b"));
        rotation.add(item(6, "a"));
        rotation.putBack(item(5, "a"));
        rotation.putBack(item(1, "a"));
        rotation.putBack(item(3, "c")); // c had nothing queued: joins at the back
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), rotation.inArrivalOrder().stream().map(QueuedItem::seq).toList());
        assertEquals(List.of("a1", "b4", "c3", "a2", "a5", "a6"), drain(rotation));
    }

    @Test
    void placesLeftBySendersWhoseItemsWereAllDropped_areClearedOut_soAFloodOfSendersCostsNoMemory() {
        SenderRotation rotation = new SenderRotation();
        rotation.add(item(1, "keeper"));
        for (int i = 2; i < 100_000; i++) {
            rotation.add(item(i, "s" + i));
            rotation.takeOldestOf(key("s" + i));
        }
        assertTrue(rotation.places() <= 20, "places in the rotation: " + rotation.places());
        assertEquals(List.of("keeper1"), drain(rotation));
    }

    @Test
    void aGroupQueueDrainsInTurns_andACollectBatchListsItsSendersInTurnsToo() {
        FollowupQueue queue = new FollowupQueue();
        for (int i = 1; i <= 4; i++) {
            queue.offer(collect(i, "a"), NOW);
        }
        queue.offer(collect(5, "b"), NOW);
        FollowupQueue.Drain drain = queue.take(NOW);
        assertTrue(drain.collect());
        assertEquals(List.of("a1", "b5", "a2", "a3", "a4"), drain.batch().stream().map(QueuedItem::text).toList());
    }

    private static QueuedItem collect(long seq, String sender) {
        QueuedItem item = item(seq, sender);
        return new QueuedItem(seq, item.tickets(), item.text(),
                new QueueSettings(QueueMode.COLLECT, Duration.ZERO, 100, DropPolicy.OLD), QueueMode.COLLECT, false);
    }
}
