package dev.laneway.agents.pool;

/**
 * A pool's {@code rpm} and {@code tpm} limits (docs/behaviour.md §14.2) as two token buckets on the
 * pool's clock, each holding a minute's worth and refilling evenly.
 *
 * <ul>
 *   <li>{@code rpm}: a call takes one token when it is granted; when none is left it books the next
 *       one and is told how long to wait for it (the bucket runs into debt, so calls granted together
 *       wait one after another).</li>
 *   <li>{@code tpm}: a call's tokens are known only once the provider reports its {@code usage}, so the
 *       bucket is debited after each call; a call may start while the bucket is above zero, else it
 *       waits until it has refilled there.</li>
 * </ul>
 * A limit of 0 is no limit. Not thread-safe: guarded by its pool's lock.
 */
final class RateBuckets {

    private static final double MINUTE_MILLIS = 60_000.0;

    private final int rpm;
    private final int tpm;
    private double requests;
    private double tokens;
    private long refilledAtMillis;

    RateBuckets(int rpm, int tpm, long nowMillis) {
        this.rpm = rpm;
        this.tpm = tpm;
        this.requests = rpm;
        this.tokens = tpm;
        this.refilledAtMillis = nowMillis;
    }

    boolean limited() {
        return rpm > 0 || tpm > 0;
    }

    /** Takes a call's request token; returns how long the call must wait first (0: go). */
    long reserveCall(long nowMillis) {
        refill(nowMillis);
        long wait = 0;
        if (rpm > 0) {
            requests -= 1;
            if (requests < 0) {
                wait = (long) Math.ceil(-requests * MINUTE_MILLIS / rpm);
            }
        }
        if (tpm > 0 && tokens <= 0) {
            wait = Math.max(wait, (long) Math.ceil((1 - tokens) * MINUTE_MILLIS / tpm));
        }
        return wait;
    }

    /** A call used {@code used} tokens (prompt and completion). */
    void spend(long nowMillis, long used) {
        if (tpm > 0 && used > 0) {
            refill(nowMillis);
            tokens -= used;
        }
    }

    private void refill(long nowMillis) {
        long elapsed = Math.max(0, nowMillis - refilledAtMillis);
        refilledAtMillis = Math.max(refilledAtMillis, nowMillis);
        if (rpm > 0) {
            requests = Math.min(rpm, requests + elapsed * rpm / MINUTE_MILLIS);
        }
        if (tpm > 0) {
            tokens = Math.min(tpm, tokens + elapsed * tpm / MINUTE_MILLIS);
        }
    }

    /** Request tokens left (may be negative: booked ahead); for tests and {@code /status}. */
    double requestsLeft(long nowMillis) {
        refill(nowMillis);
        return requests;
    }

    double tokensLeft(long nowMillis) {
        refill(nowMillis);
        return tokens;
    }
}
