package dev.laneway.app;

import dev.laneway.agents.openai.ModelCheck;
import dev.laneway.channels.discord.DiscordTokenCheck;
import dev.laneway.channels.slack.SlackTokenCheck;
import dev.laneway.channels.telegram.TelegramTokenCheck;
import dev.laneway.config.AgentsConfig;
import dev.laneway.config.ChannelsConfig;
import dev.laneway.core.LiveCheck;
import dev.laneway.core.agent.settings.OpenAiSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The live checks of a configuration that {@code laneway doctor} and {@code laneway init} share
 * (docs/configuration.md §18.2): each enabled channel's tokens, asked of the platform at the
 * configured API URL, and each model endpoint an answering agent calls. Stateless; the checks run
 * one after the other, each bounded by the timeout.
 */
final class LiveChecks {

    /** One named check and what it found. */
    record Named(String what, LiveCheck result) {
    }

    private LiveChecks() {
    }

    static List<Named> channels(ChannelsConfig channels, Duration timeout) {
        List<Named> checks = new ArrayList<>();
        if (channels.telegram().enabled()) {
            checks.add(new Named("telegram token", TelegramTokenCheck.check(channels.telegram().apiUrl(),
                    channels.telegram().token().value(), timeout)));
        }
        if (channels.discord().enabled()) {
            checks.add(new Named("discord token", DiscordTokenCheck.check(channels.discord().apiUrl(),
                    channels.discord().token().value(), timeout)));
        }
        if (channels.slack().enabled()) {
            checks.add(new Named("slack bot token", SlackTokenCheck.botToken(channels.slack().apiUrl(),
                    channels.slack().botToken().value(), timeout)));
            checks.add(new Named("slack app token", SlackTokenCheck.appToken(channels.slack().apiUrl(),
                    channels.slack().appToken().value(), timeout)));
        }
        return checks;
    }

    /**
     * One check per model endpoint (base URL, key and model) that an agent able to answer calls
     * ({@link AgentsConfig#reachable}), naming the agents that share it.
     */
    static List<Named> models(AgentsConfig agents, Collection<String> jobAgents, Duration timeout) {
        Map<String, List<String>> byEndpoint = new LinkedHashMap<>();
        Map<String, OpenAiSettings> endpoints = new LinkedHashMap<>();
        for (String name : agents.reachable(jobAgents)) {
            if (agents.list().get(name) instanceof OpenAiSettings openai) {
                String key = openai.baseUrl() + "\n" + openai.apiKey() + "\n" + openai.model();
                endpoints.putIfAbsent(key, openai);
                byEndpoint.computeIfAbsent(key, k -> new ArrayList<>()).add(name);
            }
        }
        List<Named> checks = new ArrayList<>();
        endpoints.forEach((key, openai) -> checks.add(new Named(
                "model " + openai.model() + " (agent" + (byEndpoint.get(key).size() > 1 ? "s " : " ")
                        + String.join(", ", byEndpoint.get(key)) + ")",
                ModelCheck.check(openai.baseUrl(), openai.apiKey(), openai.model(), timeout))));
        return checks;
    }
}
