package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.DropPolicy;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Random offers from several senders into one session's followup queue, with drains in between
 * (docs/behaviour.md §5.3, §5.4). Sender {@code s0} floods (about half of all messages); the others
 * send now and then; senders differ in authority, so collect batches are cut between audiences.
 *
 * <p>In a group: a message is dropped or refused only from a sender over their part of the cap (the
 * newcomer counted), or when nobody is over theirs; {@code old} and {@code summarize} take that
 * sender's oldest, {@code new} their newest (or the newcomer); between two messages of one sender
 * taken by drains, every other sender who was waiting throughout gets one; each sender's messages
 * drain in their order. In a DM (several senders, as with {@code dmScope: main}) nothing changed:
 * drains in arrival order, the oldest overall dropped, the newcomer refused.
 */
class SenderFairnessPropertyTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private static final int SENDERS = 5;

    @Property(tries = 400)
    void inAGroup_onlyASenderOverTheirPartLosesMessages_andDrainsTakeTurns(
            @ForAll @IntRange(min = 1, max = 12) int cap,
            @ForAll @IntRange(min = -1, max = 12) int rawCapPerSender,
            @ForAll DropPolicy drop,
            @ForAll @Size(min = 1, max = 250) List<@IntRange(min = 0, max = 99) Integer> ops) {
        Integer capPerSender = rawCapPerSender < 0 ? null : Math.min(rawCapPerSender, cap);
        int part = GatewaySettings.capPerSenderPart(capPerSender, cap);
        FollowupQueue queue = new FollowupQueue(capPerSender);
        Model model = new Model();
        long seq = 0;
        for (int op : ops) {
            if (op < 75) {
                QueuedItem item = item(++seq, sender(op), false, mode(op), cap, drop);
                Map<String, Integer> counts = model.countsWith(item);
                FollowupQueue.Offer offer = queue.offer(item, NOW);
                for (QueuedItem victim : offer.dropped()) {
                    assertNotWithinPartWhileAnotherIsOver(victim, counts, part);
                    assertEquals(model.oldestOf(victim), victim.seq(), "old and summarize take the sender's oldest");
                    model.gone(victim);
                }
                for (FollowupQueue.Refused refused : offer.refused()) {
                    assertEquals(DropPolicy.NEW, drop);
                    assertNotWithinPartWhileAnotherIsOver(refused.item(), counts, part);
                    assertFalse(refused.item().senderKey().equals(item.senderKey()), "the newcomer's own are never refused for it");
                    assertEquals(model.newestOf(refused.item()), refused.item().seq(), "new refuses the sender's newest");
                    model.gone(refused.item());
                }
                if (offer.accepted()) {
                    model.queued(item);
                } else {
                    assertEquals(DropPolicy.NEW, drop);
                    assertNotWithinPartWhileAnotherIsOver(item, counts, part);
                }
                assertTrue(model.size() <= cap, "never above the cap");
            } else if (!queue.isEmpty()) {
                for (QueuedItem taken : queue.take(NOW).batch()) {
                    model.taken(taken);
                }
            }
            assertEquals(model.size(), queue.items().size());
        }
        while (!queue.isEmpty()) {
            for (QueuedItem taken : queue.take(NOW).batch()) {
                model.taken(taken);
            }
        }
        assertEquals(0, model.size(), "every queued message drained");
    }

    @Property(tries = 200)
    void inADm_drainsKeepArrivalOrder_andDropsAsBefore(
            @ForAll @IntRange(min = 1, max = 12) int cap,
            @ForAll DropPolicy drop,
            @ForAll @Size(min = 1, max = 250) List<@IntRange(min = 0, max = 99) Integer> ops) {
        FollowupQueue queue = new FollowupQueue(1); // a part that would bite in a group
        ArrayDeque<Long> fifo = new ArrayDeque<>();
        long seq = 0;
        for (int op : ops) {
            if (op < 75) {
                QueuedItem item = item(++seq, sender(op), true, QueueMode.FOLLOWUP, cap, drop);
                FollowupQueue.Offer offer = queue.offer(item, NOW);
                assertTrue(offer.refused().isEmpty());
                if (drop == DropPolicy.NEW && fifo.size() >= cap) {
                    assertFalse(offer.accepted(), "a full queue refuses the newcomer");
                    continue;
                }
                assertTrue(offer.accepted());
                for (QueuedItem victim : offer.dropped()) {
                    assertEquals(fifo.removeFirst(), victim.seq(), "the oldest overall is dropped");
                }
                fifo.addLast(item.seq());
            } else if (!queue.isEmpty()) {
                for (QueuedItem taken : queue.take(NOW).batch()) {
                    assertEquals(fifo.removeFirst(), taken.seq(), "drains in arrival order");
                }
            }
        }
    }

    /**
     * A victim's sender must be over their part (the newcomer counted), unless nobody is over theirs.
     * {@code counts}: each sender's queued messages with the newcomer, before the offer.
     */
    private static void assertNotWithinPartWhileAnotherIsOver(QueuedItem victim, Map<String, Integer> counts, int part) {
        if (part == 0) {
            return;
        }
        String sender = victim.senderKey();
        if (counts.getOrDefault(sender, 0) > part) {
            return;
        }
        counts.forEach((other, count) -> assertTrue(count <= part, "a message of " + sender.replace('\0', '/')
                + " (" + counts.get(sender) + " of part " + part + ") went while " + other.replace('\0', '/') + " held "
                + count));
    }

    /** What the queue should hold, and the turn-taking owed between two messages of one sender. */
    private static final class Model {
        private final Map<String, ArrayDeque<Long>> queued = new LinkedHashMap<>();
        // sender -> the senders who were waiting when the sender was last taken and have not had one since
        private final Map<String, Set<String>> owed = new HashMap<>();

        Map<String, Integer> countsWith(QueuedItem newcomer) {
            Map<String, Integer> counts = new HashMap<>();
            queued.forEach((sender, seqs) -> counts.put(sender, seqs.size()));
            counts.merge(newcomer.senderKey(), 1, Integer::sum);
            return counts;
        }

        void queued(QueuedItem item) {
            queued.computeIfAbsent(item.senderKey(), k -> new ArrayDeque<>()).addLast(item.seq());
        }

        long oldestOf(QueuedItem item) {
            return queued.get(item.senderKey()).peekFirst();
        }

        long newestOf(QueuedItem item) {
            return queued.get(item.senderKey()).peekLast();
        }

        /** Dropped or refused: a sender left with nothing is no longer owed a turn. */
        void gone(QueuedItem item) {
            String sender = item.senderKey();
            ArrayDeque<Long> seqs = queued.get(sender);
            assertTrue(seqs.remove(item.seq()));
            if (seqs.isEmpty()) {
                queued.remove(sender);
                owed.values().forEach(waiting -> waiting.remove(sender));
            }
        }

        void taken(QueuedItem item) {
            String sender = item.senderKey();
            ArrayDeque<Long> seqs = queued.get(sender);
            assertEquals(seqs.peekFirst(), item.seq(), "a sender's messages drain in their order");
            seqs.removeFirst();
            Set<String> waiting = owed.getOrDefault(sender, Set.of());
            assertTrue(waiting.isEmpty(), sender.replace('\0', '/') + " was taken again before "
                    + waiting.stream().map(s -> s.replace('\0', '/')).toList() + " had a turn");
            owed.values().forEach(others -> others.remove(sender)); // it had its turn
            if (seqs.isEmpty()) {
                queued.remove(sender);
            }
            Set<String> others = new HashSet<>(queued.keySet());
            others.remove(sender);
            owed.put(sender, others);
        }

        int size() {
            return queued.values().stream().mapToInt(ArrayDeque::size).sum();
        }
    }

    /** About half the messages come from {@code s0}; the rest from {@code s1} to {@code s4}. */
    private static String sender(int op) {
        return op < 38 ? "s0" : "s" + (1 + op % (SENDERS - 1));
    }

    private static QueueMode mode(int op) {
        return op % 3 == 0 ? QueueMode.FOLLOWUP : QueueMode.COLLECT;
    }

    private static QueuedItem item(long seq, String sender, boolean direct, QueueMode mode, int cap, DropPolicy drop) {
        InboundMessage message = InboundMessage.builder("test").chatId(direct ? "dm-" + sender : "group")
                .senderId(sender).senderName(sender).text("t" + seq).platformMessageId("m" + seq).receivedAt(NOW)
                .direct(direct).build();
        QueueSettings settings = new QueueSettings(mode, Duration.ZERO, cap, drop);
        boolean trusted = sender.equals("s1") || sender.equals("s2"); // two audiences: batches are cut between them
        return new QueuedItem(seq, List.of(new Ticket(seq, message, false)), "t" + seq, settings, mode, trusted);
    }
}
