package dev.laneway.core.agent;

import dev.laneway.core.agent.settings.AgentSettings;
import java.time.Duration;

/**
 * Something that answers a turn: the OpenAI-compatible client, a command, the echo demo.
 * {@link #start} must return quickly (do the work on another thread or asynchronously) and must
 * never throw for a failure of the turn itself; such failures complete the run with
 * {@link RunOutcome.Failed}.
 */
public interface Agent {

    /** The name of this agent in {@code agents.list}. */
    String name();

    /** Starts one run; events go to {@code events} as they happen. */
    AgentRun start(RunRequest request, RunEvents events);

    /**
     * How long one run may take, from its start, before the gateway aborts it, frees its lanes and
     * tells the user it failed: the agent's {@code runTimeoutMs}. Default 5 minutes.
     */
    default Duration runTimeout() {
        return AgentSettings.DEFAULT_RUN_TIMEOUT;
    }

    /** Forgets the conversation history of a session ({@code /new}); default: nothing kept. */
    default void resetConversation(dev.laneway.core.SessionKey session) {
    }
}
