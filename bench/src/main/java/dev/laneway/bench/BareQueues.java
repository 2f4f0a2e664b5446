package dev.laneway.bench;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.SessionScope;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The baseline for the queueing path: the least a hand-written gateway does to queue a message
 * behind a session's running turn. It derives the session key (the engine's own
 * {@link SessionScope}), finds the session in a {@link ConcurrentHashMap}, takes the session's
 * {@link ReentrantLock}, checks the cap and appends to an {@link ArrayDeque}. Nothing else: no
 * dedupe, access check, settings resolution, journal, admission, ticket or disposition. Appending
 * is the same in collect and followup mode (they differ when the queue drains), so one baseline
 * serves both. Every session exists from the start, as every engine session has a run in flight.
 *
 * <p>Concurrency: {@code sessions} is a concurrent map; each session's {@code lock} guards its
 * {@code queue}.
 */
final class BareQueues {

    private final SessionScope scope;
    private final int cap;
    // session key -> its queue of messages waiting for the running turn to end
    private final ConcurrentHashMap<String, Session> sessions = new ConcurrentHashMap<>();

    BareQueues(SessionScope scope, int cap, InboundMessage[] oneMessagePerSession) {
        this.scope = scope;
        this.cap = cap;
        for (InboundMessage message : oneMessagePerSession) {
            sessions.put(scope.keyOf(message).value(), new Session());
        }
    }

    /** Queues the message behind its session's turn; false when the session's queue is full. */
    boolean offer(InboundMessage message) {
        Session session = sessions.computeIfAbsent(scope.keyOf(message).value(), key -> new Session());
        session.lock.lock();
        try {
            if (session.queue.size() >= cap) {
                return false;
            }
            session.queue.addLast(message);
            return true;
        } finally {
            session.lock.unlock();
        }
    }

    private static final class Session {
        final ReentrantLock lock = new ReentrantLock();
        final ArrayDeque<InboundMessage> queue = new ArrayDeque<>(); // guarded by lock
    }
}
