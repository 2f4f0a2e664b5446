package dev.laneway.core.channel;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * Exponential backoff with jitter, the one every retry loop uses (a reply the platform could not
 * take, a failed poll, a dropped socket): attempt 1 waits {@code initial}, each further attempt
 * twice as long, never more than {@code max}; then up to {@link #JITTER_SHARE} of the wait is taken
 * off at random, so many chats or clients that failed together do not all come back at once. The
 * randomness is injected: tests pass a fixed value (or {@link #withoutJitter}) to get exact waits.
 *
 * <p>Immutable and stateless: the caller counts its attempts.
 */
public final class Backoff {

    /** At most this share of each wait is taken off at random. */
    public static final double JITTER_SHARE = 0.2;

    private final Duration initial;
    private final Duration max;
    private final DoubleSupplier jitter;

    /**
     * @param jitter values in [0, 1): the share of {@link #JITTER_SHARE} taken off each wait
     * @throws IllegalArgumentException when {@code initial} is not positive or {@code max} is below it
     */
    public Backoff(Duration initial, Duration max, DoubleSupplier jitter) {
        Objects.requireNonNull(initial, "initial");
        Objects.requireNonNull(max, "max");
        if (initial.isZero() || initial.isNegative()) {
            throw new IllegalArgumentException("backoff initial wait must be positive, got " + initial);
        }
        if (max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("backoff max wait " + max + " is below its initial wait " + initial);
        }
        this.initial = initial;
        this.max = max;
        this.jitter = Objects.requireNonNull(jitter, "jitter");
    }

    /** With random jitter. */
    public static Backoff exponential(Duration initial, Duration max) {
        return new Backoff(initial, max, () -> ThreadLocalRandom.current().nextDouble());
    }

    /** The same waits with the jitter given by {@code value}. */
    public Backoff withJitter(DoubleSupplier value) {
        return new Backoff(initial, max, value);
    }

    /** The same waits without jitter (the nominal ones). */
    public Backoff withoutJitter() {
        return withJitter(() -> 0.0);
    }

    public Duration initial() {
        return initial;
    }

    public Duration max() {
        return max;
    }

    /** The wait before attempt {@code attempt + 1}, after {@code attempt} failed ones (1 for the first failure). */
    public Duration delay(int attempt) {
        Duration nominal = nominal(attempt);
        double r = Math.min(Math.max(jitter.getAsDouble(), 0.0), 1.0);
        long off = (long) (nominal.toNanos() * JITTER_SHARE * r);
        return nominal.minusNanos(off);
    }

    /** The wait before jitter: {@code initial * 2^(attempt-1)}, at most {@code max}. */
    public Duration nominal(int attempt) {
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt must be >= 1, got " + attempt);
        }
        Duration wait = initial;
        for (int i = 1; i < attempt && wait.compareTo(max) < 0; i++) {
            wait = wait.multipliedBy(2);
        }
        return wait.compareTo(max) > 0 ? max : wait;
    }

    @Override
    public String toString() {
        return "Backoff[" + initial.toMillis() + " ms doubling up to " + max.toMillis() + " ms]";
    }
}
