package dev.laneway.config;

import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueOverride;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.SteerScope;
import dev.laneway.core.engine.GatewaySettings;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * {@code messages:} what happens to messages that arrive while a session is busy or idle, and how
 * long an answer may be.
 *
 * @param maxAnswerChars {@code messages.maxAnswerChars}: the most characters of one run's answer
 *                       that are sent; the rest is cut and the user told so
 */
public record MessagesConfig(Queue queue, Inbound inbound, SteerScope steerScope, int maxAnswerChars) {

    public static final MessagesConfig DEFAULTS = new MessagesConfig(Queue.DEFAULTS, Inbound.DEFAULTS, SteerScope.SESSION,
            GatewaySettings.DEFAULT_ANSWER_CHARS);

    public MessagesConfig {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(inbound, "inbound");
        Objects.requireNonNull(steerScope, "steerScope");
    }

    /**
     * {@code messages.queue:} the followup queue (docs/behaviour.md §3 and §5).
     *
     * @param maxWait   bound on a drain's total wait; null = 10 x debounce, zero = no bound
     * @param capPerSender a group sender's part of the cap (docs/behaviour.md §5.4); null = half the
     *                  cap, rounded up; 0 = none
     * @param ttl       queued items older than this are dropped after a restart
     * @param byChannel channel -> its settings layer (a bare mode in the file sets only the mode)
     */
    public record Queue(QueueMode mode, Duration debounce, Duration maxWait, int cap, Integer capPerSender,
                        DropPolicy drop, boolean notifyDrops, Duration ttl, Map<String, QueueOverride> byChannel) {

        public static final Queue DEFAULTS = new Queue(QueueMode.COLLECT, Duration.ofMillis(1000), null, 20, null,
                DropPolicy.SUMMARIZE, true, Duration.ofHours(1), Map.of());

        public Queue {
            // Validates mode, debounce, cap and drop exactly as /queue does.
            new QueueSettings(mode, debounce, cap, drop);
            if (capPerSender != null && (capPerSender < 0 || capPerSender > cap)) {
                throw new IllegalArgumentException("capPerSender must be between 0 and cap (" + cap + "), got "
                        + capPerSender);
            }
            Objects.requireNonNull(ttl, "ttl");
            byChannel = Immutable.orderedMap(byChannel);
        }

        /** The global settings layer: mode, debounce, cap and drop. */
        public QueueSettings settings() {
            return new QueueSettings(mode, debounce, cap, drop);
        }
    }

    /**
     * {@code messages.inbound:} debounce of idle sessions (docs/behaviour.md §7).
     *
     * @param debounce  zero = off
     * @param maxWait   bound on the total wait from the first buffered message; null = 10 x the
     *                  effective debounce (as for the queue; docs/behaviour.md §7), zero = no bound
     * @param byChannel channel -> its debounce
     */
    public record Inbound(Duration debounce, Duration maxWait, Map<String, Duration> byChannel) {

        public static final Inbound DEFAULTS = new Inbound(Duration.ZERO, null, Map.of());

        public Inbound {
            Objects.requireNonNull(debounce, "debounce");
            byChannel = Immutable.orderedMap(byChannel);
        }
    }
}
