package dev.laneway.core;

import java.time.Duration;
import java.util.Objects;

/**
 * The effective queue settings of one message: validated here and nowhere else, so config and
 * {@code /queue} can never disagree about what is legal.
 */
public record QueueSettings(QueueMode mode, Duration debounce, int cap, DropPolicy drop) {

    /** The defaults (docs/configuration.md §8.1): collect, 1000 ms, 20, summarize. */
    public static final QueueSettings DEFAULTS =
            new QueueSettings(QueueMode.COLLECT, Duration.ofMillis(1000), 20, DropPolicy.SUMMARIZE);

    public QueueSettings {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(debounce, "debounce");
        Objects.requireNonNull(drop, "drop");
        if (debounce.isNegative()) {
            throw new IllegalArgumentException("debounce must be >= 0, got " + debounce.toMillis() + "ms");
        }
        if (cap < 1) {
            throw new IllegalArgumentException("cap must be an integer >= 1, got " + cap);
        }
    }

    /** These settings with every field the override sets replaced by the override's value. */
    public QueueSettings with(QueueOverride override) {
        if (override == null || override.isEmpty()) {
            return this;
        }
        return new QueueSettings(
                override.mode() != null ? override.mode() : mode,
                override.debounce() != null ? override.debounce() : debounce,
                override.cap() != null ? override.cap() : cap,
                override.drop() != null ? override.drop() : drop);
    }
}
