package dev.laneway.agents.openai;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Settings of one {@code provider: openai} agent, validated at construction.
 *
 * @param name               the agent's name in {@code agents.list}
 * @param baseUrl            e.g. {@code https://api.openai.com/v1}; requests go to {@code <baseUrl>/chat/completions}
 * @param apiKey             sent as {@code Authorization: Bearer} when non-empty; never logged
 * @param model              the model id
 * @param systemPrompt       the system message; empty for none
 * @param stream             whether to use server-sent events
 * @param timeout            bound on one HTTP exchange, from sending to the last byte
 * @param maxHistoryMessages how many stored history messages go into each request (0 = none)
 * @param temperature        sampling temperature, or null for the server's default
 * @param maxTokens          {@code max_tokens}, or null for the server's default
 * @param maxRetries         retries of a 429 or 5xx answer (so at most {@code 1 + maxRetries} requests)
 * @param tools              names of the enabled tools, e.g. {@code [current_time]}
 */
public record OpenAiSettings(String name, String baseUrl, String apiKey, String model, String systemPrompt,
                             boolean stream, Duration timeout, int maxHistoryMessages, Double temperature,
                             Integer maxTokens, int maxRetries, List<String> tools) {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(120);
    public static final int DEFAULT_MAX_HISTORY_MESSAGES = 40;
    public static final int DEFAULT_MAX_RETRIES = 2;

    public OpenAiSettings {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("openai agent name must not be blank");
        }
        baseUrl = checkBaseUrl(name, baseUrl);
        apiKey = apiKey == null ? "" : apiKey.strip();
        if (model == null || model.isBlank()) {
            throw invalid(name, "model", "must be set", model);
        }
        systemPrompt = systemPrompt == null ? "" : systemPrompt;
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw invalid(name, "timeoutMs", "must be > 0", timeout == null ? null : timeout.toMillis());
        }
        if (maxHistoryMessages < 0) {
            throw invalid(name, "maxHistoryMessages", "must be >= 0", maxHistoryMessages);
        }
        if (temperature != null && !(temperature >= 0 && temperature <= 2)) {
            throw invalid(name, "temperature", "must be between 0 and 2", temperature);
        }
        if (maxTokens != null && maxTokens < 1) {
            throw invalid(name, "maxTokens", "must be >= 1", maxTokens);
        }
        if (maxRetries < 0 || maxRetries > 10) {
            throw invalid(name, "maxRetries", "must be between 0 and 10", maxRetries);
        }
        tools = tools == null ? List.of() : List.copyOf(tools);
    }

    /** Settings with every optional field at its default: no key, no system prompt, streaming. */
    public static OpenAiSettings defaults(String name, String baseUrl, String model) {
        return new OpenAiSettings(name, baseUrl, "", model, "", true, DEFAULT_TIMEOUT,
                DEFAULT_MAX_HISTORY_MESSAGES, null, null, DEFAULT_MAX_RETRIES, List.of());
    }

    public OpenAiSettings withApiKey(String key) {
        return new OpenAiSettings(name, baseUrl, key, model, systemPrompt, stream, timeout, maxHistoryMessages,
                temperature, maxTokens, maxRetries, tools);
    }

    public OpenAiSettings withSystemPrompt(String prompt) {
        return new OpenAiSettings(name, baseUrl, apiKey, model, prompt, stream, timeout, maxHistoryMessages,
                temperature, maxTokens, maxRetries, tools);
    }

    public OpenAiSettings withStream(boolean on) {
        return new OpenAiSettings(name, baseUrl, apiKey, model, systemPrompt, on, timeout, maxHistoryMessages,
                temperature, maxTokens, maxRetries, tools);
    }

    public OpenAiSettings withMaxHistoryMessages(int max) {
        return new OpenAiSettings(name, baseUrl, apiKey, model, systemPrompt, stream, timeout, max,
                temperature, maxTokens, maxRetries, tools);
    }

    public OpenAiSettings withTools(List<String> names) {
        return new OpenAiSettings(name, baseUrl, apiKey, model, systemPrompt, stream, timeout, maxHistoryMessages,
                temperature, maxTokens, maxRetries, names);
    }

    /** {@code <baseUrl>/chat/completions}, with no doubled slash. */
    public URI chatCompletionsUri() {
        String base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        return URI.create(base + "/chat/completions");
    }

    /** Like the record's, but the API key is redacted. */
    @Override
    public String toString() {
        return "OpenAiSettings[name=" + name + ", baseUrl=" + baseUrl + ", apiKey=" + (apiKey.isEmpty() ? "" : "***")
                + ", model=" + model + ", stream=" + stream + ", timeout=" + timeout + ", maxHistoryMessages="
                + maxHistoryMessages + ", temperature=" + temperature + ", maxTokens=" + maxTokens
                + ", maxRetries=" + maxRetries + ", tools=" + tools + "]";
    }

    private static String checkBaseUrl(String name, String baseUrl) {
        String url = baseUrl == null ? "" : baseUrl.strip();
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme();
            if (("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme)) && uri.getHost() != null
                    && uri.getQuery() == null && uri.getFragment() == null) {
                return url;
            }
        } catch (URISyntaxException e) {
            // reported below
        }
        throw invalid(name, "baseUrl", "must be an http(s) URL like https://api.openai.com/v1", baseUrl);
    }

    private static IllegalArgumentException invalid(String agent, String setting, String rule, Object value) {
        return new IllegalArgumentException("agents.list." + agent + "." + setting + ": " + rule + ", got '"
                + value + "'");
    }
}
