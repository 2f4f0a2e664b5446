package dev.laneway.channels.telegram;

import dev.laneway.channels.telegram.TelegramSettings.Pacing;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Decides when the next message to a chat may go: about one per {@code chatInterval} with a short
 * burst (a generic cell-rate algorithm), at most {@code groupMax} per {@code groupWindow} in a group
 * (a sliding log of send times), and nothing before a {@code retry_after} from a 429 has passed.
 * Every limit is per chat: a chat that is rate limited never delays another one.
 *
 * <p>Pure decisions: each method takes {@code now} and only books or reads state; the caller
 * sleeps. Sends to one chat are sequential (the gateway's outbox), so a booked slot is used in
 * order.
 *
 * <p>Concurrency: {@code lock} guards {@code chats} and every {@link ChatState} in it.
 */
final class Pacer {

    private static final int PRUNE_ABOVE = 10_000;

    private final Pacing pacing;
    private final Duration chatTolerance;
    private final ReentrantLock lock = new ReentrantLock();
    // chat id -> its pacing state
    private final Map<String, ChatState> chats = new HashMap<>();

    Pacer(Pacing pacing) {
        this.pacing = pacing;
        this.chatTolerance = pacing.chatInterval().multipliedBy(pacing.chatBurst() - 1L);
    }

    /** Books the next slot for one message to {@code chatId}; returns how long to wait for it. */
    Duration reserve(String chatId, boolean group, Instant now) {
        lock.lock();
        try {
            ChatState state = chats.computeIfAbsent(chatId, id -> new ChatState());
            Instant sendAt = now;
            if (state.blockedUntil != null && state.blockedUntil.isAfter(sendAt)) {
                sendAt = state.blockedUntil;
            }
            if (state.theoreticalArrival != null) {
                sendAt = latest(sendAt, state.theoreticalArrival.minus(chatTolerance));
            }
            if (group) {
                prune(state.recent, sendAt);
                if (state.recent.size() >= pacing.groupMax()) {
                    sendAt = latest(sendAt, state.recent.peekFirst().plus(pacing.groupWindow()));
                    prune(state.recent, sendAt);
                }
                state.recent.addLast(sendAt);
            }
            Instant base = state.theoreticalArrival == null ? sendAt : latest(state.theoreticalArrival, sendAt);
            state.theoreticalArrival = base.plus(pacing.chatInterval());
            if (chats.size() > PRUNE_ABOVE) {
                chats.values().removeIf(s -> s.idleAt(now, pacing.groupWindow()));
            }
            return Duration.between(now, sendAt);
        } finally {
            lock.unlock();
        }
    }

    /** A 429 for {@code chatId}: nothing more goes to that chat for {@code wait}. */
    void retryAfter(String chatId, Duration wait, Instant now) {
        lock.lock();
        try {
            ChatState state = chats.computeIfAbsent(chatId, id -> new ChatState());
            Instant until = now.plus(wait);
            if (state.blockedUntil == null || until.isAfter(state.blockedUntil)) {
                state.blockedUntil = until;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Whether {@code chatId} is waiting out a 429 (so even a typing action should not go). */
    boolean coolingDown(String chatId, Instant now) {
        lock.lock();
        try {
            ChatState state = chats.get(chatId);
            return state != null && state.blockedUntil != null && state.blockedUntil.isAfter(now);
        } finally {
            lock.unlock();
        }
    }

    private void prune(ArrayDeque<Instant> recent, Instant at) {
        Instant horizon = at.minus(pacing.groupWindow());
        while (!recent.isEmpty() && !recent.peekFirst().isAfter(horizon)) {
            recent.pollFirst();
        }
    }

    private static Instant latest(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static final class ChatState {
        Instant theoreticalArrival;       // GCRA: when the next message would be exactly on rate
        Instant blockedUntil;             // end of the last retry_after
        final ArrayDeque<Instant> recent = new ArrayDeque<>(); // group sends within the window, oldest first

        boolean idleAt(Instant now, Duration window) {
            return (theoreticalArrival == null || !theoreticalArrival.isAfter(now))
                    && (blockedUntil == null || !blockedUntil.isAfter(now))
                    && (recent.isEmpty() || !recent.peekLast().plus(window).isAfter(now));
        }
    }
}
