package dev.laneway.core.engine;

import java.util.AbstractCollection;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * Drains a group conversation's queue round robin across senders (docs/behaviour.md §5.3,
 * docs/decisions.md D53): the next item is the oldest of the sender at the front of the rotation,
 * who then goes to its back if they have more. A sender joins the rotation at its back when their
 * first message is queued, so the sender who has waited longest goes first, each sender's messages
 * keep their order, and between two messages of one sender every other sender who was waiting gets
 * one. Senders are named by {@link QueuedItem#senderKey}.
 *
 * <p>It also finds, for the per-sender part of the cap (docs/behaviour.md §5.4), how many items a
 * sender holds and who holds the most, and takes a given sender's oldest or newest item.
 *
 * <p>The structures, each costing the same at any depth: every item is a node of one doubly linked
 * list in arrival (sequence) order, so the oldest overall is at hand and a node taken from the middle
 * is unlinked at once; each sender's nodes sit in their own deque, oldest first; the rotation is a
 * deque of senders; and senders are linked into buckets by how many items they hold, with the
 * largest count kept in a field, so the one holding the most is found without a search (a count
 * changes by one at a time). A sender left with nothing queued leaves the rotation, and their next
 * item joins it at the back. One whose items were all dropped is forgotten at once, and their stale
 * place is skipped when it comes round, or cleared out with the others once stale places outnumber
 * the senders (a walk the drops that made them pay for), so a drop costs the same at any depth.
 *
 * <p>Not thread-safe: guarded by the owning {@link SessionQueue}'s lock.
 */
final class SenderRotation implements DrainOrder {

    /** One queued item, linked in arrival order. */
    private static final class Node {
        final QueuedItem item;
        final Sender sender;
        Node older;
        Node newer;

        Node(QueuedItem item, Sender sender) {
            this.item = item;
            this.sender = sender;
        }
    }

    /**
     * One sender's queued items and their links in the count buckets. A sender is in {@code senders}
     * exactly while they hold an item, and then also in the rotation; an instance left with none is
     * never used again.
     */
    private static final class Sender {
        final String key;
        final ArrayDeque<Node> nodes = new ArrayDeque<>(2); // sequence order
        Sender prevSameCount;
        Sender nextSameCount;

        Sender(String key) {
            this.key = key;
        }
    }

    // sender key -> the sender, while they hold an item
    private final Map<String, Sender> senders = new HashMap<>();
    // the senders holding an item, in turn order; may also hold stale senders who hold none (skipped)
    private final ArrayDeque<Sender> rotation = new ArrayDeque<>();
    private int stale; // stale senders in the rotation
    // index c: the first of the senders holding exactly c items (null: none; index 0 unused)
    private final ArrayList<Sender> byCount = new ArrayList<>();
    private int most; // the largest count any sender holds
    private Node oldest;
    private Node newest;
    private int size;

    @Override
    public int size() {
        return size;
    }

    @Override
    public void add(QueuedItem item) {
        Sender sender = senderOf(item);
        Node node = new Node(item, sender);
        if (newest == null) {
            oldest = node;
        } else {
            newest.newer = node;
            node.older = newest;
        }
        newest = node;
        sender.nodes.addLast(node);
        grew(sender);
    }

    @Override
    public void putBack(QueuedItem item) {
        Sender sender = senderOf(item);
        Node node = new Node(item, sender);
        Node before = newest; // the newest node older than item; walked back from the newest
        while (before != null && before.item.seq() > item.seq()) {
            before = before.older;
        }
        node.older = before;
        node.newer = before == null ? oldest : before.newer;
        if (node.older == null) {
            oldest = node;
        } else {
            node.older.newer = node;
        }
        if (node.newer == null) {
            newest = node;
        } else {
            node.newer.older = node;
        }
        insertBySeq(sender.nodes, node);
        grew(sender);
    }

    private static void insertBySeq(ArrayDeque<Node> nodes, Node node) {
        long seq = node.item.seq();
        if (nodes.isEmpty() || nodes.peekLast().item.seq() < seq) {
            nodes.addLast(node);
        } else if (nodes.peekFirst().item.seq() > seq) {
            nodes.addFirst(node);
        } else { // in the middle: rare (a failed run's steers), so the sender's deque is rebuilt
            List<Node> all = new ArrayList<>(nodes.size() + 1);
            boolean placed = false;
            for (Node queued : nodes) {
                if (!placed && queued.item.seq() > seq) {
                    all.add(node);
                    placed = true;
                }
                all.add(queued);
            }
            nodes.clear();
            nodes.addAll(all);
        }
    }

    @Override
    public QueuedItem peekNext() {
        return front().nodes.peekFirst().item;
    }

    @Override
    public QueuedItem takeNext() {
        Sender sender = front();
        rotation.removeFirst();
        Node node = sender.nodes.removeFirst();
        removed(node, false);
        if (!sender.nodes.isEmpty()) {
            rotation.addLast(sender);
        }
        return node.item;
    }

    @Override
    public QueuedItem takeOldest() {
        Node node = oldest;
        ArrayDeque<Node> nodes = node.sender.nodes;
        if (nodes.peekFirst() == node) { // always so while each sender's items arrive in sequence order
            nodes.removeFirst();
        } else {
            nodes.removeFirstOccurrence(node);
        }
        removed(node, true);
        return node.item;
    }

    @Override
    public QueuedItem newest() {
        return newest == null ? null : newest.item;
    }

    /** How many items the sender {@code senderKey} holds. */
    int countOf(String senderKey) {
        Sender sender = senders.get(senderKey);
        return sender == null ? 0 : sender.nodes.size();
    }

    /** The most items any one sender holds. */
    int most() {
        return most;
    }

    /** The key of a sender holding {@link #most()} items (of several, the last to reach that count), or null when empty. */
    String mostQueued() {
        return most == 0 ? null : byCount.get(most).key;
    }

    /** Takes the oldest item of the sender {@code senderKey}, who must hold one. */
    QueuedItem takeOldestOf(String senderKey) {
        Node node = senders.get(senderKey).nodes.removeFirst();
        removed(node, true);
        return node.item;
    }

    /** Takes the newest item of the sender {@code senderKey}, who must hold one. */
    QueuedItem takeNewestOf(String senderKey) {
        Node node = senders.get(senderKey).nodes.removeLast();
        removed(node, true);
        return node.item;
    }

    /** The rotation's length, stale places included (for tests of its upkeep). */
    int places() {
        return rotation.size();
    }

    @Override
    public Collection<QueuedItem> inArrivalOrder() {
        return new AbstractCollection<>() {
            @Override
            public Iterator<QueuedItem> iterator() {
                return new Iterator<>() {
                    private Node next = oldest;

                    @Override
                    public boolean hasNext() {
                        return next != null;
                    }

                    @Override
                    public QueuedItem next() {
                        if (next == null) {
                            throw new NoSuchElementException();
                        }
                        QueuedItem item = next.item;
                        next = next.newer;
                        return item;
                    }
                };
            }

            @Override
            public int size() {
                return size;
            }
        };
    }

    @Override
    public List<QueuedItem> clear() {
        List<QueuedItem> all = List.copyOf(inArrivalOrder());
        senders.clear();
        rotation.clear();
        byCount.clear();
        stale = 0;
        most = 0;
        oldest = null;
        newest = null;
        size = 0;
        return all;
    }

    // ---------------------------------------------------------------- bookkeeping

    private Sender senderOf(QueuedItem item) {
        return senders.computeIfAbsent(item.senderKey(), Sender::new);
    }

    /** The sender at the front of the rotation, once the stale places before it are skipped. */
    private Sender front() {
        Sender sender = rotation.peekFirst();
        while (sender.nodes.isEmpty()) { // all their items were dropped
            rotation.removeFirst();
            stale--;
            sender = rotation.peekFirst();
        }
        return sender;
    }

    /** A node was added to {@code sender}'s deque; their first joins the rotation at its back. */
    private void grew(Sender sender) {
        size++;
        int count = sender.nodes.size();
        if (count == 1) {
            rotation.addLast(sender);
        } else {
            unlinkCount(sender, count - 1);
        }
        linkCount(sender, count);
        most = Math.max(most, count);
    }

    /**
     * A node was taken from its sender's deque: unlinks it from the arrival list and recounts.
     * {@code inRotation}: whether its sender is still in the rotation (a drop; not the next item's
     * taking), where they stay, stale, if this was their last item.
     */
    private void removed(Node node, boolean inRotation) {
        if (node.older == null) {
            oldest = node.newer;
        } else {
            node.older.newer = node.newer;
        }
        if (node.newer == null) {
            newest = node.older;
        } else {
            node.newer.older = node.older;
        }
        node.older = null;
        node.newer = null;
        size--;
        Sender sender = node.sender;
        int count = sender.nodes.size();
        unlinkCount(sender, count + 1);
        if (count > 0) {
            linkCount(sender, count);
        } else {
            senders.remove(sender.key); // a later item of theirs makes a new sender
            if (inRotation && ++stale > Math.max(16, senders.size())) {
                // more stale places than senders: dropped out, paid for by the drops that made them
                rotation.removeIf(gone -> gone.nodes.isEmpty());
                stale = 0;
            }
        }
        if (byCount.get(most) == null) { // the one who held the most now holds one less (or, at one, none)
            most--;
        }
    }

    private void linkCount(Sender sender, int count) {
        while (byCount.size() <= count) {
            byCount.add(null);
        }
        Sender first = byCount.get(count);
        sender.prevSameCount = null;
        sender.nextSameCount = first;
        if (first != null) {
            first.prevSameCount = sender;
        }
        byCount.set(count, sender);
    }

    private void unlinkCount(Sender sender, int count) {
        if (sender.prevSameCount == null) {
            byCount.set(count, sender.nextSameCount);
        } else {
            sender.prevSameCount.nextSameCount = sender.nextSameCount;
        }
        if (sender.nextSameCount != null) {
            sender.nextSameCount.prevSameCount = sender.prevSameCount;
        }
        sender.prevSameCount = null;
        sender.nextSameCount = null;
    }
}
