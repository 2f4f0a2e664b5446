package dev.laneway.channels.telegram;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock that moves only when someone sleeps on it: {@link #sleep} records the wait, advances the
 * clock by it and returns at once. Thread-safe. Gives the channel's pacing and retry waits real
 * meaning in tests without any real sleeping.
 */
class VirtualTime implements InstantSource, Sleeper {

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-03-01T12:00:00Z"));
    private final List<Duration> sleeps = new CopyOnWriteArrayList<>();

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public void sleep(Duration duration) throws InterruptedException {
        if (duration.isPositive()) {
            sleeps.add(duration);
            now.accumulateAndGet(Instant.EPOCH.plus(duration), (current, by) -> current.plusMillis(by.toEpochMilli()));
        }
    }

    /** Every positive wait asked for, in order. */
    List<Duration> sleeps() {
        return List.copyOf(sleeps);
    }
}
