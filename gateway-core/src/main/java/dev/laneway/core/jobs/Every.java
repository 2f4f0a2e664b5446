package dev.laneway.core.jobs;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A job that fires at a fixed interval ({@code every: 30m}). Its phase comes from its last fire:
 * the next fire is the last one plus a whole number of intervals; a job that never fired first
 * fires one interval after the gateway starts.
 */
public record Every(Duration interval) implements FireSchedule {

    public Every {
        Objects.requireNonNull(interval, "interval");
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("an interval must be > 0, got " + interval);
        }
    }

    @Override
    public Optional<Instant> next(Instant after, Instant anchor) {
        if (anchor == null || anchor.isAfter(after)) {
            return Optional.of(anchor == null ? after.plus(interval) : anchor);
        }
        long steps = Duration.between(anchor, after).dividedBy(interval) + 1;
        return Optional.of(anchor.plus(interval.multipliedBy(steps)));
    }

    @Override
    public Optional<Instant> latest(Instant since, Instant until) {
        if (!until.isAfter(since)) {
            return Optional.empty();
        }
        long steps = Duration.between(since, until).dividedBy(interval);
        return steps == 0 ? Optional.empty() : Optional.of(since.plus(interval.multipliedBy(steps)));
    }

    @Override
    public String describe() {
        return "every " + JobTimes.duration(interval);
    }
}
