package dev.laneway.core.engine;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.Route;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The inbound debounce of one session (docs/behaviour.md §7): per sender, the text messages that came
 * while the session was idle, held until {@code debounce} has passed without another one from that
 * sender (but no longer than {@code maxWait} after the first), then offered as one item. Separate
 * from the followup queue.
 *
 * <p>Not thread-safe: guarded by the owning {@link SessionQueue}'s lock. A buffer's timer calls
 * {@code onDue} with the sender's key; it must take the lock and {@link #take} the buffer.
 */
final class InboundDebounce {

    private final EngineContext ctx;
    private final Consumer<String> onDue;
    // sender key (channel, account, sender id) -> that sender's buffer
    // (shared and empty until the first buffer: most sessions never debounce)
    private Map<String, InboundBuffer> buffers = Map.of();

    /** @param onDue called when a sender's buffer is due; it must take the session lock and call {@link #take} */
    InboundDebounce(EngineContext ctx, Consumer<String> onDue) {
        this.ctx = ctx;
        this.onDue = onDue;
    }

    /** Whether {@code item} may wait in a buffer: debounce is on and it is text (no media, not empty). */
    static boolean applies(QueuedItem item, Duration debounce) {
        InboundMessage message = item.last();
        return !debounce.isZero() && !message.text().isBlank() && message.attachments().isEmpty();
    }

    /** Whether this sender (a sender key) has a buffer. */
    boolean holds(String sender) {
        return buffers.containsKey(sender);
    }

    /** Adds {@code item} to its sender's buffer and pushes that buffer's deadline. */
    void add(QueuedItem item, Duration debounce, Duration maxWait) {
        Instant now = ctx.clock.instant();
        String sender = item.senderKey();
        if (buffers.isEmpty()) {
            buffers = new LinkedHashMap<>();
        }
        InboundBuffer buffer = buffers.computeIfAbsent(sender, key -> new InboundBuffer(now));
        buffer.items.add(item);
        buffer.timer.cancel();
        Instant due = now.plus(debounce);
        if (!maxWait.isZero() && buffer.firstAt.plus(maxWait).isBefore(due)) {
            due = buffer.firstAt.plus(maxWait);
        }
        buffer.timer = ctx.scheduler.schedule(Duration.between(now, due), () -> onDue.accept(sender));
    }

    /** Takes the sender's buffer as one item, or null when there is none. */
    QueuedItem take(String sender) {
        InboundBuffer buffer = buffers.isEmpty() ? null : buffers.remove(sender);
        if (buffer == null) {
            return null;
        }
        buffer.timer.cancel();
        return buffer.combined();
    }

    /** The sender keys of every buffer of this sender id, whatever the channel. */
    List<String> sendersWithId(String senderId) {
        List<String> senders = new ArrayList<>();
        buffers.forEach((sender, buffer) -> {
            if (buffer.items.get(0).last().senderId().equals(senderId)) {
                senders.add(sender);
            }
        });
        return senders;
    }

    /** Empties every buffer ({@code /stop}); returns their items, each as it came. */
    List<QueuedItem> clear() {
        List<QueuedItem> items = new ArrayList<>();
        buffers.values().forEach(buffer -> {
            buffer.timer.cancel();
            items.addAll(buffer.items);
        });
        buffers = Map.of();
        return items;
    }

    boolean isEmpty() {
        return buffers.isEmpty();
    }

    /** Buffered messages. */
    int messageCount() {
        return buffers.values().stream().mapToInt(buffer -> buffer.items.size()).sum();
    }

    /** Adds the route of every buffered message to {@code routes}. */
    void addRoutes(List<Route> routes) {
        buffers.values().forEach(buffer -> buffer.items.forEach(item -> routes.add(item.route())));
    }
}
