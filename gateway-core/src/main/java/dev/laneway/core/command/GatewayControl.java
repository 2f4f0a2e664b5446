package dev.laneway.core.command;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueOverride;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.SessionKey;
import java.util.List;
import java.util.Optional;

/** The gateway operations chat commands use. Every method returns at once, but a fleet's {@link #stop}. */
public interface GatewayControl {

    /** The settings a message in this session would get now (without an inline directive). */
    QueueSettings effectiveSettings(SessionKey session, String channel);

    /**
     * A group sender's part of {@code cap} ({@code messages.queue.capPerSender}, docs/behaviour.md
     * §5.4); 0 when there is none.
     */
    default int capPerSender(int cap) {
        return 0;
    }

    Optional<QueueOverride> sessionOverride(SessionKey session);

    /** Replaces the session's stored override in one write; {@link QueueOverride#NONE} resets it. */
    void setSessionOverride(SessionKey session, QueueOverride override);

    /**
     * Aborts the active run, clears the session's queue and drops what is left unsent of its answers
     * (even of a run that has ended); returns how many queued messages were cleared. In a fleet, a
     * session whose lease another instance holds is stopped there, and this waits (a few seconds at
     * most) for that instance's count (docs/behaviour.md §17).
     */
    int stop(SessionKey session);

    /**
     * {@code /queue status} (docs/behaviour.md §6.9): the messages of {@code sender}'s sender waiting in
     * the session's queue, oldest first, each with its place in the queue; with {@code everyone}, every
     * sender's. Default: none.
     */
    default List<QueuedMessage> queued(SessionKey session, InboundMessage sender, boolean everyone) {
        return List.of();
    }

    /**
     * {@code /queue cancel} (docs/behaviour.md §6.9): drops the messages of {@code sender}'s sender (with
     * {@code everyone}: every sender's) from the session's queue; they are not answered. The active run
     * goes on. Returns how many were dropped. Default: none.
     */
    default int cancelQueued(SessionKey session, InboundMessage sender, boolean everyone) {
        return 0;
    }

    /** Starts a fresh conversation history for the session. */
    void newConversation(SessionKey session);

    SessionStatus status(SessionKey session, String channel);

    /**
     * The status of the session of {@code message} (a {@code /status} command), also naming the agent
     * that answers in its conversation (docs/behaviour.md §13.1); default: without the agent.
     */
    default SessionStatus status(SessionKey session, InboundMessage message) {
        return status(session, message.channel());
    }
}
