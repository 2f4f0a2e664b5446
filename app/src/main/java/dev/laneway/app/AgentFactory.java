package dev.laneway.app;

import dev.laneway.agents.command.CommandAgent;
import dev.laneway.agents.echo.EchoAgent;
import dev.laneway.agents.openai.OpenAiAgent;
import dev.laneway.agents.pool.ProviderPools;
import dev.laneway.config.AgentsConfig;
import dev.laneway.core.agent.Agent;
import dev.laneway.core.agent.settings.AgentSettings;
import dev.laneway.core.agent.settings.CommandSettings;
import dev.laneway.core.agent.settings.EchoSettings;
import dev.laneway.core.agent.settings.OpenAiSettings;
import dev.laneway.core.engine.AgentRoster;
import dev.laneway.core.store.SessionStore;
import dev.laneway.core.time.Scheduler;
import java.time.InstantSource;
import java.util.List;

/**
 * Builds the configured agents from their {@code agents.list} entries. The entry is the validated
 * settings record the config loader built, passed on unchanged, so an agent never rejects a
 * setting that {@code laneway validate} accepted.
 */
final class AgentFactory {

    private AgentFactory() {
    }

    /**
     * The agents that can answer a message ({@link AgentsConfig#reachable}: the default agent, those
     * bindings name, and their fallbacks), with their bindings and fallbacks (docs/behaviour.md §13).
     * Every one shares {@code store}, so a fallback sees the session's same history, and {@code pools},
     * so agents calling one endpoint share its limits (docs/behaviour.md §14).
     */
    static AgentRoster roster(AgentsConfig agents, List<String> named, SessionStore store, Scheduler scheduler,
                              InstantSource clock, ProviderPools pools) {
        AgentRoster.Builder roster = AgentRoster.builder().defaultAgent(agents.defaultAgent());
        for (String name : agents.reachable(named)) {
            roster.agent(name, create(agents.list().get(name), store, scheduler, clock, pools), agents.fallbackOf(name),
                    agents.noticeAgents().contains(name));
        }
        agents.bindings().forEach(roster::binding);
        return roster.build();
    }

    /** {@link #roster(AgentsConfig, List, SessionStore, Scheduler, InstantSource, ProviderPools)} without jobs' agents. */
    static AgentRoster roster(AgentsConfig agents, SessionStore store, Scheduler scheduler, InstantSource clock,
                              ProviderPools pools) {
        return roster(agents, List.of(), store, scheduler, clock, pools);
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
