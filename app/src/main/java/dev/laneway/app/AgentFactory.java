package dev.laneway.app;

import dev.laneway.agents.command.CommandAgent;
import dev.laneway.agents.echo.EchoAgent;
import dev.laneway.agents.openai.OpenAiAgent;
import dev.laneway.agents.openai.OpenAiSettings;
import dev.laneway.config.AgentConfig;
import dev.laneway.core.agent.Agent;
import dev.laneway.core.store.SessionStore;
import dev.laneway.core.time.Scheduler;
import java.time.InstantSource;

/** Builds the configured agent from its {@code agents.list} entry. */
final class AgentFactory {

    private AgentFactory() {
    }

    static Agent create(String name, AgentConfig config, SessionStore store, Scheduler scheduler, InstantSource clock) {
        return switch (config) {
            case AgentConfig.Echo echo -> new EchoAgent(name, echo.delay(), scheduler);
            case AgentConfig.OpenAi openai -> new OpenAiAgent(new OpenAiSettings(name, openai.baseUrl().toString(),
                    openai.apiKey().value(), openai.model(), openai.systemPrompt(), openai.stream(), openai.timeout(),
                    openai.maxHistoryMessages(), openai.temperature(), openai.maxTokens(), openai.maxRetries(),
                    openai.tools()), store, scheduler, clock);
            case AgentConfig.Command command -> new CommandAgent(name, command.command(), command.timeout(), scheduler);
        };
    }
}
