package dev.laneway.core.scheduling;

import java.time.Duration;

/**
 * When a run that asks {@code main} now (or already waits) is likely to start.
 *
 * @param ahead runs that will be served before it (0: it starts at once, or is next)
 * @param expected the expected wait: {@code ahead} slots to free at the observed run time over the
 *              lane's cap; {@link Duration#ZERO} when a slot is free for it now
 */
public record WaitEstimate(int ahead, Duration expected) {

    public static final WaitEstimate NOW = new WaitEstimate(0, Duration.ZERO);

    /** Its place in line, counted from 1 ({@code you are #3 in line}). */
    public int position() {
        return ahead + 1;
    }

    /** The wait in whole seconds, rounded up, at least 1. */
    public long waitSeconds() {
        return Math.max(1, (expected.toMillis() + 999) / 1000);
    }
}
