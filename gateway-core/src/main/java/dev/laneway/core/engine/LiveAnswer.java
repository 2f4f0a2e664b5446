package dev.laneway.core.engine;

import dev.laneway.core.Route;
import dev.laneway.core.SessionKey;
import dev.laneway.core.time.Scheduler;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * A run's answer streamed to its chat (docs/behaviour.md §16): one {@link LiveSegment} per reply of
 * the run, the current one growing with the agent's deltas. Every change reaches the chat through
 * the chat's outbox queue (its pacing, 429 pauses and retries), at most one update per segment
 * waiting at a time and at most one per {@code minEditInterval}: a change that comes sooner waits
 * on a timer, and the update then shows everything that arrived meanwhile. A complete reply is one
 * last update carrying the record of what it answers right behind it, as a plain reply would.
 *
 * <p>Concurrency: {@code lock} guards {@code current} and {@code segments}; the segments guard
 * themselves. The agent's thread calls {@link #delta}, {@link #tool}, {@link #restart} and
 * {@link #finish}; the executor calls {@link #end} once the run's attempt is over. The outbox and
 * the scheduler are called with no lock held.
 */
final class LiveAnswer {

    /** The mark a reply gets when a {@code /stop} or an interrupt ended its run mid-stream. */
    static final String STOPPED = "⏹ Stopped.";
    /** The mark a reply gets when its run failed, timed out or moved to another agent mid-stream. */
    static final String INTERRUPTED = "⚠️ Interrupted.";

    private final Route route;
    private final SessionKey session;
    private final Outbox outbox;
    private final Scheduler scheduler;
    private final InstantSource clock;
    private final Duration minInterval;
    private final BooleanSupplier stillWanted;
    private final Delivery delivery;
    private final int maxChars;
    private final LiveTrace trace; // where live messages are recorded durably (docs/behaviour.md §16.3), or null
    private final ReentrantLock lock = new ReentrantLock();
    private LiveSegment current;                             // the reply being written; guarded by lock
    private final List<LiveSegment> segments = new ArrayList<>(); // every reply streamed; guarded by lock

    LiveAnswer(Route route, SessionKey session, Outbox outbox, Scheduler scheduler, InstantSource clock,
               Duration minInterval, BooleanSupplier stillWanted, Delivery delivery, int maxChars) {
        this(route, session, outbox, scheduler, clock, minInterval, stillWanted, delivery, maxChars, null);
    }

    /** @param trace where the live messages are recorded durably (null: nowhere) */
    LiveAnswer(Route route, SessionKey session, Outbox outbox, Scheduler scheduler, InstantSource clock,
               Duration minInterval, BooleanSupplier stillWanted, Delivery delivery, int maxChars, LiveTrace trace) {
        this.trace = trace;
        this.route = route;
        this.session = session;
        this.outbox = outbox;
        this.scheduler = scheduler;
        this.clock = clock;
        this.minInterval = minInterval;
        this.stillWanted = stillWanted;
        this.delivery = delivery;
        this.maxChars = maxChars;
    }

    /** Streamed text; {@code room}: how many characters the answer may still take. */
    void delta(String text, long room) {
        LiveSegment segment = current(room);
        if (segment.append(text)) {
            arrange(segment);
        }
    }

    /** A tool started ({@code status} {@code started}) or ended: its progress line shows or goes. */
    void tool(String name, String status) {
        LiveSegment segment = current(maxChars);
        if (segment.tool("started".equals(status) ? name : null)) {
            arrange(segment);
        }
    }

    /** The model call is tried again: the current reply starts over. */
    void restart() {
        LiveSegment segment = peek();
        if (segment != null) {
            segment.restart();
        }
    }

    /**
     * The current reply is complete: its messages are brought to exactly {@code reply}, then
     * {@code then} runs (may be null). False when nothing of it was streamed: the caller sends it as
     * a plain reply.
     */
    boolean finish(String reply, Runnable then) {
        LiveSegment segment;
        lock.lock();
        try {
            segment = current;
            if (segment == null || !segment.started()) {
                return false;
            }
            current = null; // the next delta starts the next reply
        } finally {
            lock.unlock();
        }
        segment.finish(reply);
        outbox.live(route, session, segment, stillWanted, delivery, true, then);
        return true;
    }

    /**
     * The run's attempt is over: a reply not shown whole gets {@code mark} ({@link #STOPPED} or
     * {@link #INTERRUPTED}); {@code aborted}: the run was silenced (a stop, an interrupt, its
     * deadline), so a complete reply not yet sent is not sent either; a run a shutdown aborted is not
     * silenced, so its complete reply still goes, its answered record behind it. The mark goes whatever the run's state (a stop does not drop it).
     */
    void end(String mark, boolean aborted) {
        List<LiveSegment> all;
        lock.lock();
        try {
            all = List.copyOf(segments);
            current = null;
        } finally {
            lock.unlock();
        }
        for (LiveSegment segment : all) {
            if (segment.end(mark, aborted)) {
                outbox.live(route, null, segment, () -> true, null, true, null);
            }
        }
    }

    private LiveSegment current(long room) {
        lock.lock();
        try {
            if (current == null) {
                current = new LiveSegment((int) Math.max(0, Math.min(Integer.MAX_VALUE, room)), trace);
                segments.add(current);
            }
            return current;
        } finally {
            lock.unlock();
        }
    }

    private LiveSegment peek() {
        lock.lock();
        try {
            return current;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Queues an update now, or on a timer once the minimum interval since the last one has passed.
     * An update before the last one reports no failure to the run's delivery: the last one makes
     * what it could not.
     */
    private void arrange(LiveSegment segment) {
        Duration wait = segment.delay(clock.instant(), minInterval);
        if (!wait.isPositive()) {
            outbox.live(route, session, segment, stillWanted, null, false, null);
            return;
        }
        try {
            scheduler.schedule(wait, () -> outbox.live(route, session, segment, stillWanted, null, false, null));
        } catch (RejectedExecutionException e) {
            // stopping: the complete reply still goes as the final update
        }
    }
}
