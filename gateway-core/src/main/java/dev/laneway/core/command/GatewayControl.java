package dev.laneway.core.command;

import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueOverride;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.SessionKey;
import java.util.Optional;

/** The gateway operations chat commands use. Every method returns at once. */
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
     * (even of a run that has ended); returns how many queued messages were cleared.
     */
    int stop(SessionKey session);

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
