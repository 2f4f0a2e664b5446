package dev.laneway.config;

import static dev.laneway.config.ConfigPrinter.map;
import static dev.laneway.config.ConfigPrinter.millis;
import static dev.laneway.config.ConfigPrinter.put;
import static dev.laneway.config.ConfigPrinter.url;

import dev.laneway.core.agent.settings.AgentSettings;
import dev.laneway.core.agent.settings.CommandSettings;
import dev.laneway.core.agent.settings.EchoSettings;
import dev.laneway.core.agent.settings.OpenAiSettings;
import java.util.LinkedHashMap;
import java.util.Map;

/** The {@code agents:} part of {@link ConfigPrinter}'s output. */
final class AgentPrinter {

    private AgentPrinter() {
    }

    static Map<String, Object> agents(AgentsConfig agents) {
        Map<String, Object> list = new LinkedHashMap<>();
        agents.list().forEach((name, agent) -> put(list, name, agent(agent)));
        return map("defaults", map("maxConcurrent", agents.maxConcurrent(), "agent", agents.defaultAgent()),
                "list", list);
    }

    private static Map<String, Object> agent(AgentSettings agent) {
        return switch (agent) {
            case EchoSettings echo -> map("provider", echo.provider(), "delayMs", millis(echo.delay()),
                    "runTimeoutMs", millis(echo.runTimeout()));
            case OpenAiSettings ai -> map("provider", ai.provider(),
                    "baseUrl", url(ai.baseUrl()),
                    "apiKey", new Secret(ai.apiKey()),
                    "model", ai.model(),
                    "systemPrompt", ai.systemPrompt(),
                    "stream", ai.stream(),
                    "timeoutMs", millis(ai.timeout()),
                    "maxHistoryMessages", ai.maxHistoryMessages(),
                    "temperature", ai.temperature(),
                    "maxTokens", ai.maxTokens(),
                    "maxRetries", ai.maxRetries(),
                    "tools", ai.tools(),
                    "runTimeoutMs", millis(ai.runTimeout()));
            case CommandSettings command -> map("provider", command.provider(),
                    "command", command.command(),
                    "timeoutMs", millis(command.timeout()),
                    "runTimeoutMs", millis(command.runTimeout()));
        };
    }
}
