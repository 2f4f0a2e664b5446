package dev.laneway.core.channel;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Decides when the next message to a chat may go: about one per {@code interval} with a short
 * burst (a generic cell-rate algorithm), and, for chats the caller marks as windowed (Telegram
 * groups), at most {@code windowMax} per {@code window} (a sliding log of send times). Every limit
 * is per chat: a busy chat never delays another one. A channel answers
 * {@link ChannelAdapter#pace} with it; the outbox does the waiting, without a thread.
 *
 * <p>Pure decisions: {@link #reserve} takes {@code now} and books the slot it returns. Sends to one
 * chat are sequential (the outbox), so a booked slot is used in order.
 *
 * <p>Concurrency: {@code lock} guards {@code chats} and every {@link ChatState} in it.
 */
public final class ChatPacer {

    private static final int PRUNE_ABOVE = 10_000;

    /**
     * The limits.
     *
     * @param interval  the steady pace: one message per interval
     * @param burst     how many may go at once after a quiet spell (at least 1)
     * @param windowMax at most this many per {@code window} in a windowed chat
     * @param window    the sliding window of {@code windowMax}
     */
    public record Limits(Duration interval, int burst, int windowMax, Duration window) {

        public Limits {
            requirePositive("interval", interval);
            requirePositive("window", window);
            if (burst < 1 || windowMax < 1) {
                throw new IllegalArgumentException("pacing burst and windowMax must be >= 1, got " + burst + " and "
                        + windowMax);
            }
        }

        /** One per {@code interval} with a burst, and no window. */
        public static Limits perChat(Duration interval, int burst) {
            return new Limits(interval, burst, Integer.MAX_VALUE, interval);
        }

        private static void requirePositive(String name, Duration value) {
            Objects.requireNonNull(value, name);
            if (value.isZero() || value.isNegative()) {
                throw new IllegalArgumentException("pacing " + name + " must be positive, got " + value);
            }
        }
    }

    private final Limits limits;
    private final Duration tolerance;
    private final ReentrantLock lock = new ReentrantLock();
    // chat id -> its pacing state; idle chats are pruned once there are many
    private final Map<String, ChatState> chats = new HashMap<>();

    public ChatPacer(Limits limits) {
        this.limits = Objects.requireNonNull(limits, "limits");
        this.tolerance = limits.interval().multipliedBy(limits.burst() - 1L);
    }

    /** Books the next slot for one message to {@code chat}; returns how long to wait for it (zero: now). */
    public Duration reserve(String chat, boolean windowed, Instant now) {
        lock.lock();
        try {
            ChatState state = chats.computeIfAbsent(chat, id -> new ChatState());
            Instant sendAt = now;
            if (state.theoreticalArrival != null) {
                sendAt = latest(sendAt, state.theoreticalArrival.minus(tolerance));
            }
            if (windowed) {
                prune(state.recent, sendAt);
                if (state.recent.size() >= limits.windowMax()) {
                    sendAt = latest(sendAt, state.recent.peekFirst().plus(limits.window()));
                    prune(state.recent, sendAt);
                }
                state.recent.addLast(sendAt);
            }
            Instant base = state.theoreticalArrival == null ? sendAt : latest(state.theoreticalArrival, sendAt);
            state.theoreticalArrival = base.plus(limits.interval());
            if (chats.size() > PRUNE_ABOVE) {
                chats.values().removeIf(s -> s.idleAt(now, limits.window()));
            }
            return Duration.between(now, sendAt);
        } finally {
            lock.unlock();
        }
    }

    private void prune(ArrayDeque<Instant> recent, Instant at) {
        Instant horizon = at.minus(limits.window());
        while (!recent.isEmpty() && !recent.peekFirst().isAfter(horizon)) {
            recent.pollFirst();
        }
    }

    private static Instant latest(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static final class ChatState {
        Instant theoreticalArrival;       // GCRA: when the next message would be exactly on rate
        final ArrayDeque<Instant> recent = new ArrayDeque<>(); // windowed sends within the window, oldest first

        boolean idleAt(Instant now, Duration window) {
            return (theoreticalArrival == null || !theoreticalArrival.isAfter(now))
                    && (recent.isEmpty() || !recent.peekLast().plus(window).isAfter(now));
        }
    }
}
