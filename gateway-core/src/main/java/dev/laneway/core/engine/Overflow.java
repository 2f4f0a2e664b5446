package dev.laneway.core.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * The summary lines of items dropped by {@code drop: summarize} for one {@link Audience}, in drop
 * order, and the last of those items (it names the route, sender and mode of a turn that carries
 * the summary alone). Guarded by the owning {@link SessionQueue}'s lock.
 */
final class Overflow {

    final Audience audience;
    final List<String> lines = new ArrayList<>();
    QueuedItem lastDropped;

    Overflow(Audience audience) {
        this.audience = audience;
    }

    void add(QueuedItem victim) {
        lines.add(PromptFormatter.summaryLine(victim));
        lastDropped = victim;
    }
}
