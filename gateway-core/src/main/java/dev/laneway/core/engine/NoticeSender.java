package dev.laneway.core.engine;

import dev.laneway.core.Route;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Tells senders what happened to their messages: drop and summary tallies, and notices each sender
 * gets at most once. Decides who hears what; {@link Notices} has the words. Sends go out through
 * {@link Effects}; called with the session lock held (the {@code told} sets are guarded by it).
 * Immutable.
 */
final class NoticeSender {

    private final Outbox outbox;
    private final boolean notifyDrops;

    /** @param notifyDrops whether senders are told about drops ({@code notifyDrops}) */
    NoticeSender(Outbox outbox, boolean notifyDrops) {
        this.outbox = outbox;
        this.notifyDrops = notifyDrops;
    }

    /**
     * Tells each sender about their dropped messages (unless {@code notifyDrops: false}). When the
     * summaries will not run after all ({@code summariesLost}: the queue was cleared, or the gateway
     * is stopping), summarized messages are reported as dropped.
     */
    void drops(List<DropTally> tallies, boolean summariesLost, Effects fx) {
        if (!notifyDrops) {
            return;
        }
        for (DropTally tally : tallies) {
            Route route = tally.route;
            String text = tally.summarized > 0 && tally.dropped == 0 && !summariesLost
                    ? Notices.summarized(tally.cap, tally.summarized)
                    : Notices.dropped(tally.cap, tally.dropped + tally.summarized);
            fx.add(() -> outbox.send(route, text));
        }
    }

    /** Sends {@code text} once to each sender of {@code affected} not yet in {@code told} (at their last message). */
    void oncePerSender(List<QueuedItem> affected, String text, Set<String> told, Effects fx) {
        Map<String, Route> routes = new LinkedHashMap<>();
        affected.forEach(item -> routes.put(item.senderKey(), item.route()));
        routes.forEach((sender, route) -> {
            if (told.add(sender)) {
                fx.add(() -> outbox.send(route, text));
            }
        });
    }
}
