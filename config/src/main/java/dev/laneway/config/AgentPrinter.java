package dev.laneway.config;

import static dev.laneway.config.ConfigPrinter.map;
import static dev.laneway.config.ConfigPrinter.millis;
import static dev.laneway.config.ConfigPrinter.put;
import static dev.laneway.config.ConfigPrinter.url;

import dev.laneway.core.agent.AgentBinding;
import dev.laneway.core.agent.settings.AgentSettings;
import dev.laneway.core.agent.settings.CommandSettings;
import dev.laneway.core.agent.settings.EchoSettings;
import dev.laneway.core.agent.settings.OpenAiSettings;
import java.util.ArrayList;
import dev.laneway.core.agent.settings.ProviderSettings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The {@code agents:} part of {@link ConfigPrinter}'s output. */
final class AgentPrinter {

    private AgentPrinter() {
    }

    static Map<String, Object> agents(AgentsConfig agents) {
        Map<String, Object> list = new LinkedHashMap<>();
        agents.list().forEach((name, agent) -> {
            Map<String, Object> printed = agent(agent);
            List<String> fallback = agents.fallbackOf(name);
            if (!fallback.isEmpty()) {
                put(printed, "fallback", fallback);
                put(printed, "fallbackNotice", agents.noticeAgents().contains(name));
            }
            put(list, name, printed);
        });
        List<Map<String, Object>> bindings = new ArrayList<>();
        agents.bindings().forEach(binding -> bindings.add(binding(binding)));
        return map("defaults", map("maxConcurrent", agents.maxConcurrent(), "agent", agents.defaultAgent(),
                        "fallbackNotice", agents.fallbackNotice()),
                "list", list, "bindings", bindings);
    }

    /** A binding's conditions (those it sets) and its agent; the space is printed as {@code space}. */
    private static Map<String, Object> binding(AgentBinding binding) {
        Map<String, Object> out = new LinkedHashMap<>();
        Object[] pairs = {"channel", binding.channel(), "account", binding.account(), "space", binding.space(),
                "chat", binding.chat(), "thread", binding.thread(), "dm", binding.direct(), "agent", binding.agent()};
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i + 1] != null) {
                out.put((String) pairs[i], pairs[i + 1]); // ids, not secrets: past put()'s secret check
            }
        }
        return out;
    }

    /** {@code providers:}; an agent naming one shows the endpoint's URL, key (masked) and model itself. */
    static Map<String, Object> providers(Map<String, ProviderSettings> providers) {
        Map<String, Object> out = new LinkedHashMap<>();
        // Provider names are the user's, so they bypass the secret-key check of put().
        providers.forEach((name, p) -> out.put(name, map("baseUrl", url(p.baseUrl()), "apiKey", new Secret(p.apiKey()),
                "model", p.model(), "maxConcurrent", p.maxConcurrent(), "rpm", p.rpm(), "tpm", p.tpm(),
                "adaptive", p.adaptive(), "circuit", map("failures", p.circuit().failures(),
                        "window", millis(p.circuit().window()), "openFor", millis(p.circuit().openFor())))));
        return out;
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
                    "runTimeoutMs", millis(ai.runTimeout()),
                    "vision", ai.vision(),
                    "images", ai.imageUrls() ? "url" : "data-url");
            case CommandSettings command -> map("provider", command.provider(),
                    "command", command.command(),
                    "timeoutMs", millis(command.timeout()),
                    "runTimeoutMs", millis(command.runTimeout()));
        };
    }
}
