package dev.laneway.app;

import dev.laneway.agents.command.CommandAgent;
import dev.laneway.agents.echo.EchoAgent;
import dev.laneway.agents.openai.OpenAiAgent;
import dev.laneway.agents.pool.ProviderPools;
import dev.laneway.core.agent.Agent;
import dev.laneway.core.agent.settings.AgentSettings;
import dev.laneway.core.agent.settings.CommandSettings;
import dev.laneway.core.agent.settings.EchoSettings;
import dev.laneway.core.agent.settings.OpenAiSettings;
import dev.laneway.core.store.SessionStore;
import dev.laneway.core.time.Scheduler;
import java.time.InstantSource;

/**
 * Builds the configured agent from its {@code agents.list} entry. The entry is the validated
 * settings record the config loader built, passed on unchanged, so an agent never rejects a
 * setting that {@code laneway validate} accepted.
 */
final class AgentFactory {

    private AgentFactory() {
    }

    /** With a pool of its own for an {@code openai} agent's endpoint. */
    static Agent create(AgentSettings settings, SessionStore store, Scheduler scheduler, InstantSource clock) {
        return create(settings, store, scheduler, clock, ProviderPools.unnamed(clock, scheduler));
    }

    /** @param pools where an {@code openai} agent's endpoint pool is (shared by every agent calling it) */
    static Agent create(AgentSettings settings, SessionStore store, Scheduler scheduler, InstantSource clock,
                        ProviderPools pools) {
        return switch (settings) {
            case EchoSettings echo -> new EchoAgent(echo, scheduler);
            case OpenAiSettings openai -> new OpenAiAgent(openai, store, scheduler, clock, pools);
            case CommandSettings command -> new CommandAgent(command, scheduler);
        };
    }
}
