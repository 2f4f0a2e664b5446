package dev.laneway.app;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What {@code laneway init} writes (docs/configuration.md §18.3): the chat channels with their
 * tokens and API URLs (null: the platform's default), and the agent. The secrets go to {@code .env}
 * under {@link #ENV}'s names, and the config names them as {@code ${NAME}}.
 *
 * @param telegramToken null when Telegram is not chosen
 * @param discordToken  null when Discord is not chosen
 * @param slackBotToken null when Slack is not chosen (then so is {@code slackAppToken})
 * @param apiKey        empty for a server without keys (Ollama)
 */
record SetupAnswers(String telegramToken, URI telegramApiUrl, String discordToken, URI discordApiUrl,
                    String slackBotToken, String slackAppToken, URI slackApiUrl,
                    String baseUrl, String apiKey, String model) {

    static final String TELEGRAM = "TELEGRAM_BOT_TOKEN";
    static final String DISCORD = "DISCORD_BOT_TOKEN";
    static final String SLACK_BOT = "SLACK_BOT_TOKEN";
    static final String SLACK_APP = "SLACK_APP_TOKEN";
    static final String API_KEY = "OPENAI_API_KEY";
    static final List<String> ENV = List.of(TELEGRAM, DISCORD, SLACK_BOT, SLACK_APP, API_KEY);

    /** The secrets by variable name, in {@link #ENV}'s order, only those given. */
    Map<String, String> secrets() {
        Map<String, String> secrets = new java.util.LinkedHashMap<>();
        put(secrets, TELEGRAM, telegramToken);
        put(secrets, DISCORD, discordToken);
        put(secrets, SLACK_BOT, slackBotToken);
        put(secrets, SLACK_APP, slackAppToken);
        put(secrets, API_KEY, apiKey);
        return secrets;
    }

    /** The chosen channels' names, in the order of the reference. */
    List<String> channels() {
        List<String> names = new ArrayList<>();
        if (telegramToken != null) {
            names.add("telegram");
        }
        if (discordToken != null) {
            names.add("discord");
        }
        if (slackBotToken != null) {
            names.add("slack");
        }
        return names;
    }

    private static void put(Map<String, String> secrets, String name, String value) {
        if (value != null && !value.isEmpty()) {
            secrets.put(name, value);
        }
    }
}
