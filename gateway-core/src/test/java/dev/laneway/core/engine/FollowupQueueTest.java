package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.DropPolicy;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The followup queue's bookkeeping, where it keeps counts instead of walking the queue. */
class FollowupQueueTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    /** An item of the conversation {@code chat} (a conversation is one audience). */
    private static QueuedItem item(long seq, String chat, QueueMode mode, int cap, DropPolicy drop) {
        InboundMessage message = InboundMessage.builder("test").chatId(chat).senderId("user").text("t" + seq)
                .platformMessageId("m" + seq).receivedAt(NOW).direct(false).build();
        QueueSettings settings = new QueueSettings(mode, Duration.ZERO, cap, drop);
        return new QueuedItem(seq, List.of(new Ticket(seq, message, false)), "t" + seq, settings, mode, true);
    }

    private static QueuedItem followup(long seq) {
        return item(seq, "chat-a", QueueMode.FOLLOWUP, 100, DropPolicy.NEW);
    }

    private static List<Long> seqs(FollowupQueue queue) {
        return queue.items().stream().map(QueuedItem::seq).toList();
    }

    @Test
    void aRequeuedItemGoesBackToItsArrivalPosition_atTheHead_inTheMiddle_orAtTheEnd() {
        FollowupQueue queue = new FollowupQueue();
        queue.offer(followup(3), NOW);
        queue.offer(followup(6), NOW);
        queue.requeue(followup(5), NOW);
        queue.requeue(followup(1), NOW);
        queue.requeue(followup(8), NOW);
        queue.requeue(followup(4), NOW);
        assertEquals(List.of(1L, 3L, 4L, 5L, 6L, 8L), seqs(queue));
        assertEquals(6, queue.messageCount());
        assertEquals(1L, queue.take(NOW).batch().get(0).seq());
        assertEquals(5, queue.messageCount());
    }

    @Test
    void aSummaryWhoseAudienceHasNothingQueued_isATurnOfItsOwn_andOnlyThen() {
        FollowupQueue queue = new FollowupQueue();
        // cap 2, summarize: chat-b's item is dropped, and its summary's audience has nothing queued
        queue.offer(item(1, "chat-b", QueueMode.FOLLOWUP, 2, DropPolicy.SUMMARIZE), NOW);
        queue.offer(item(2, "chat-a", QueueMode.FOLLOWUP, 2, DropPolicy.SUMMARIZE), NOW);
        queue.offer(item(3, "chat-a", QueueMode.FOLLOWUP, 2, DropPolicy.SUMMARIZE), NOW);
        FollowupQueue.Drain orphan = queue.take(NOW);
        assertTrue(orphan.batch().isEmpty(), "chat-b's summary runs alone");
        assertEquals(1, orphan.summary().size());
        assertEquals(2L, queue.take(NOW).batch().get(0).seq());
        assertEquals(3L, queue.take(NOW).batch().get(0).seq());
        assertTrue(queue.isEmpty());
        assertEquals(0, queue.messageCount());
    }

    @Test
    void aCollectBatchTakesTheFollowingCollectItemsOfItsAudience_andStopsAtAnother() {
        FollowupQueue queue = new FollowupQueue();
        queue.offer(item(1, "chat-a", QueueMode.COLLECT, 20, DropPolicy.NEW), NOW);
        queue.offer(item(2, "chat-a", QueueMode.COLLECT, 20, DropPolicy.NEW), NOW);
        queue.offer(item(3, "chat-b", QueueMode.COLLECT, 20, DropPolicy.NEW), NOW);
        queue.offer(item(4, "chat-a", QueueMode.COLLECT, 20, DropPolicy.NEW), NOW);
        assertEquals(List.of(1L, 2L), queue.take(NOW).batch().stream().map(QueuedItem::seq).toList());
        assertEquals(List.of(3L), queue.take(NOW).batch().stream().map(QueuedItem::seq).toList());
        assertEquals(List.of(4L), queue.take(NOW).batch().stream().map(QueuedItem::seq).toList());
    }
}
