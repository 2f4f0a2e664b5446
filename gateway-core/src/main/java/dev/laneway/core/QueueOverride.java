package dev.laneway.core;

import java.time.Duration;

/**
 * A partial set of queue settings: each null field means "not set here". Used for the global
 * config layer, {@code byChannel}, a session's stored {@code /queue} override and inline
 * directives; {@link QueueSettings#with} layers them.
 */
public record QueueOverride(QueueMode mode, Duration debounce, Integer cap, DropPolicy drop) {

    public static final QueueOverride NONE = new QueueOverride(null, null, null, null);

    public QueueOverride {
        if (debounce != null && debounce.isNegative()) {
            throw new IllegalArgumentException("debounce must be >= 0, got " + debounce.toMillis() + "ms");
        }
        if (cap != null && cap < 1) {
            throw new IllegalArgumentException("cap must be an integer >= 1, got " + cap);
        }
    }

    public static QueueOverride mode(QueueMode mode) {
        return new QueueOverride(mode, null, null, null);
    }

    public boolean isEmpty() {
        return mode == null && debounce == null && cap == null && drop == null;
    }

    /** This override with every field {@code newer} sets taken from {@code newer}. */
    public QueueOverride merge(QueueOverride newer) {
        if (newer == null) {
            return this;
        }
        return new QueueOverride(
                newer.mode != null ? newer.mode : mode,
                newer.debounce != null ? newer.debounce : debounce,
                newer.cap != null ? newer.cap : cap,
                newer.drop != null ? newer.drop : drop);
    }
}
