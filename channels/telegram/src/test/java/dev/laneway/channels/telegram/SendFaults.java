package dev.laneway.channels.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayDeque;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Failures queued for the {@link FakeBotApi}'s next {@code sendMessage} calls, taken in order: a
 * fault for one chat waits for a send to that chat; one for formatted text waits for a send with a
 * {@code parse_mode}.
 *
 * <p>Concurrency: {@code lock} guards {@code queue}.
 */
final class SendFaults {

    /**
     * One failure: the HTTP status and Bot API error it answers with, or, when {@code page} is not
     * null, that text instead of a Bot API answer (a proxy's error page).
     */
    record Fault(String chatId, boolean onlyFormatted, int code, String description, int retryAfter, String page) {
        Fault(String chatId, boolean onlyFormatted, int code, String description, int retryAfter) {
            this(chatId, onlyFormatted, code, description, retryAfter, null);
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Fault> queue = new ArrayDeque<>();   // next failures, oldest first

    void add(Fault fault) {
        lock.lock();
        try {
            queue.addLast(fault);
        } finally {
            lock.unlock();
        }
    }

    /** The fault this {@code sendMessage} body meets, taken off the queue; null when it goes through. */
    Fault take(JsonNode body) {
        lock.lock();
        try {
            Fault next = queue.peekFirst();
            if (next == null || (next.chatId() != null && !next.chatId().equals(body.path("chat_id").asText()))
                    || (next.onlyFormatted() && !body.hasNonNull("parse_mode"))) {
                return null;
            }
            return queue.pollFirst();
        } finally {
            lock.unlock();
        }
    }
}
