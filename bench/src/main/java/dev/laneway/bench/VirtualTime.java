package dev.laneway.bench;

import java.time.Instant;
import java.time.InstantSource;
import java.util.Comparator;
import java.util.PriorityQueue;

/**
 * The scheduling simulation's clock and event loop in one: virtual milliseconds from 0 that move
 * only when {@link #step} takes the next event, so a simulated hour runs in milliseconds of real
 * time. Events due at the same millisecond run in the order they were scheduled. Not thread-safe:
 * the simulation is one thread, and every action runs on it.
 */
final class VirtualTime implements InstantSource {

    private record Event(long due, long order, Runnable action) {
    }

    private final PriorityQueue<Event> events = new PriorityQueue<>(
            Comparator.comparingLong(Event::due).thenComparingLong(Event::order));
    private long now;
    private long order;

    /** Runs {@code action} at virtual time {@code millis} (not before now). */
    void at(long millis, Runnable action) {
        if (millis < now) {
            throw new IllegalArgumentException("an event at " + millis + " ms is in the past (now " + now + " ms)");
        }
        events.add(new Event(millis, order++, action));
    }

    boolean hasNext() {
        return !events.isEmpty();
    }

    /** When the next event is due; only while {@link #hasNext}. */
    long nextDue() {
        return events.element().due();
    }

    /** Moves the clock to the next event and runs it. */
    void step() {
        Event next = events.remove();
        now = next.due();
        next.action().run();
    }

    long now() {
        return now;
    }

    @Override
    public long millis() {
        return now;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(now);
    }
}
