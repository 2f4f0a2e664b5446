package dev.laneway.core.engine;

import dev.laneway.core.time.Scheduler.Cancellable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One sender's inbound-debounced messages of an idle session (docs/behaviour.md §7). Guarded by the
 * owning {@link SessionQueue}'s lock.
 */
final class InboundBuffer {
    final Instant firstAt;
    final List<QueuedItem> items = new ArrayList<>();
    Cancellable timer = Cancellable.NONE;

    InboundBuffer(Instant firstAt) {
        this.firstAt = firstAt;
    }

    /** The buffered messages as one item: texts joined by newlines, the last one's settings. */
    QueuedItem combined() {
        if (items.size() == 1) {
            return items.get(0);
        }
        List<Ticket> tickets = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        for (QueuedItem item : items) {
            tickets.addAll(item.tickets());
            texts.add(item.text());
        }
        QueuedItem last = items.get(items.size() - 1);
        return new QueuedItem(items.get(0).seq(), tickets, String.join("\n", texts), last.settings(),
                last.mode(), last.trusted());
    }
}
