package dev.laneway.core.channel;

import java.time.Duration;

/**
 * Whether a chat's answers are streamed (shown while the model writes them, by sending a message
 * and editing it), and at most how often its live message is changed (docs/behaviour.md §16).
 *
 * @param on              stream answers to this chat
 * @param minEditInterval the least time between two changes of one live answer (the chat's pacing
 *                        applies on top)
 */
public record Streaming(boolean on, Duration minEditInterval) {

    /** No streaming: an answer is sent once it is complete. */
    public static final Streaming OFF = new Streaming(false, Duration.ofSeconds(1));

    public Streaming {
        if (minEditInterval == null || minEditInterval.isNegative()) {
            throw new IllegalArgumentException("minEditInterval must be zero or positive, got " + minEditInterval);
        }
    }

    /** Streaming on, at most one change per {@code minEditInterval}. */
    public static Streaming every(Duration minEditInterval) {
        return new Streaming(true, minEditInterval);
    }
}
