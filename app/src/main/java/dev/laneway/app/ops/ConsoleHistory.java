package dev.laneway.app.ops;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The operator console's charts (docs/behaviour.md §18): one point per {@link #sample} (the console
 * stream samples once a second) for the last {@value #POINTS} samples: messages ended (dispositions),
 * runs started on {@code main} and their mean queue wait in that second. Read from counters that
 * exist anyway (the disposition feed's count, the {@code laneway_queue_wait_seconds} timers), so it
 * adds nothing to a message's path.
 *
 * <p>Concurrency: {@code lock} guards the ring and the previous readings; {@link #sample} runs on one
 * thread at a time (the stream's ticker), {@link #points} on any.
 */
final class ConsoleHistory {

    /** How many points the charts keep: five minutes at one a second. */
    static final int POINTS = 300;

    /**
     * One second of the charts.
     *
     * @param at          the sample's time (epoch millis)
     * @param messages    dispositions recorded since the previous point
     * @param runs        runs granted a {@code main} slot since the previous point
     * @param queueWaitMs their mean wait for it, in milliseconds (0 without runs)
     */
    record Point(long at, long messages, long runs, double queueWaitMs) {
    }

    private final InstantSource clock;
    private final DispositionFeed feed;
    private final MeterRegistry registry;
    private final ReentrantLock lock = new ReentrantLock();
    private final Point[] ring = new Point[POINTS]; // guarded by lock
    private long count;                             // guarded by lock: points taken
    private long lastMessages;                      // guarded by lock
    private long lastRuns;                          // guarded by lock
    private double lastWaitMs;                      // guarded by lock

    ConsoleHistory(InstantSource clock, DispositionFeed feed, MeterRegistry registry) {
        this.clock = clock;
        this.feed = feed;
        this.registry = registry;
    }

    /** Takes one point: what changed since the previous sample (the first: since start, the counters begin at 0). */
    void sample() {
        long messages = feed.total();
        long runs = 0;
        double waitMs = 0;
        for (Timer timer : registry.find(MetricNames.QUEUE_WAIT).timers()) {
            runs += timer.count();
            waitMs += timer.totalTime(TimeUnit.MILLISECONDS);
        }
        long at = clock.millis();
        lock.lock();
        try {
            long newRuns = runs - lastRuns;
            ring[(int) (count++ % POINTS)] = new Point(at, messages - lastMessages, newRuns,
                    newRuns == 0 ? 0 : (waitMs - lastWaitMs) / newRuns);
            lastMessages = messages;
            lastRuns = runs;
            lastWaitMs = waitMs;
        } finally {
            lock.unlock();
        }
    }

    /** The points kept, oldest first. */
    List<Point> points() {
        lock.lock();
        try {
            long from = Math.max(0, count - POINTS);
            List<Point> points = new ArrayList<>((int) (count - from));
            for (long i = from; i < count; i++) {
                points.add(ring[(int) (i % POINTS)]);
            }
            return points;
        } finally {
            lock.unlock();
        }
    }
}
