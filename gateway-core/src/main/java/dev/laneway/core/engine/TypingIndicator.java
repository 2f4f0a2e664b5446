package dev.laneway.core.engine;

import dev.laneway.core.Route;
import dev.laneway.core.time.Scheduler.Cancellable;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The typing indicator of one session (docs/behaviour.md §2): shown at once where a message is accepted,
 * then refreshed, for as long as the session has work, in every conversation it has work for (the
 * active run's first, then those of waiting messages), so a run in one thread keeps its indicator
 * when another thread of the same session posts. One timer per session, due at the shortest
 * refresh interval of the channels involved.
 *
 * <p>Not thread-safe: guarded by the owning {@link SessionQueue}'s lock; sends go out through
 * {@link Effects} after the lock is released. The timer calls back into the session, which takes
 * the lock and hands the current routes to {@link #refresh}.
 */
final class TypingIndicator {

    private final EngineContext ctx;
    private final Runnable onTimer;
    // conversations (no reply target) shown since the last refresh; made on first use (a channel with typing)
    private Set<Route> shown;
    private Cancellable timer = Cancellable.NONE;
    private Instant timerDue;

    /** @param onTimer called when a refresh is due; it must take the session lock and call {@link #refresh} */
    TypingIndicator(EngineContext ctx, Runnable onTimer) {
        this.ctx = ctx;
        this.onTimer = onTimer;
    }

    /** A message for {@code route} was accepted: typing shows there at once unless it already does. */
    void accepted(Route route, Effects fx) {
        Optional<Duration> refresh = ctx.typingRefresh(route.channel());
        if (refresh.isEmpty()) {
            return;
        }
        if (shown().add(route.replyingTo(null))) {
            fx.add(() -> ctx.outbox.typing(route));
        }
        armWithin(refresh.get());
    }

    /** The timer fired: shows typing in each conversation of {@code routes} once, and re-arms if any. */
    void refresh(List<Route> routes, Effects fx) {
        timer = Cancellable.NONE;
        timerDue = null;
        shown().clear();
        for (Route route : routes) {
            Optional<Duration> refresh = ctx.typingRefresh(route.channel());
            if (refresh.isPresent() && shown.add(route.replyingTo(null))) {
                fx.add(() -> ctx.outbox.typing(route));
                armWithin(refresh.get());
            }
        }
    }

    /** The session has no work left: no more refreshes. */
    void stop() {
        timer.cancel();
        timer = Cancellable.NONE;
        timerDue = null;
        shown = null;
    }

    private Set<Route> shown() {
        if (shown == null) {
            shown = new HashSet<>();
        }
        return shown;
    }

    private void armWithin(Duration refresh) {
        Instant due = ctx.clock.instant().plus(refresh);
        if (timerDue != null && !due.isBefore(timerDue)) {
            return;
        }
        timer.cancel();
        timerDue = due;
        timer = ctx.scheduler.schedule(refresh, onTimer);
    }
}
