package dev.laneway.channels.slack;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A thread-safe manual clock that is also the channel's {@link Sleeper}: "sleeping" records the
 * wait and moves the clock forward at once, so a 429 test proves the wait without waiting.
 */
final class SteppingClock implements InstantSource, Sleeper {

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
    private final List<Duration> sleeps = new CopyOnWriteArrayList<>();

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public void sleep(Duration duration) {
        sleeps.add(duration);
        now.updateAndGet(t -> t.plus(duration));
    }

    List<Duration> sleeps() {
        return List.copyOf(sleeps);
    }
}
