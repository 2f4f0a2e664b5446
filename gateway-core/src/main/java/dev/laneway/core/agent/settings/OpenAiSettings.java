package dev.laneway.core.agent.settings;

import dev.laneway.core.UrlRedactor;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/**
 * {@code provider: openai}: any OpenAI-compatible Chat Completions server, validated at construction.
 *
 * @param name               the agent's name in {@code agents.list}
 * @param baseUrl            an absolute http(s) URL without query or fragment, e.g.
 *                           {@code https://api.openai.com/v1}; requests go to {@code <baseUrl>/chat/completions}
 * @param apiKey             sent as {@code Authorization: Bearer} when non-empty; never logged
 * @param model              the model id
 * @param systemPrompt       the system message; empty for none
 * @param stream             whether to use server-sent events
 * @param timeout            idle bound of one HTTP exchange: the longest wait for the response headers,
 *                           and for each further piece of the body; a healthy stream may take longer
 * @param maxHistoryMessages how many stored history messages go into each request (0 = none)
 * @param temperature        sampling temperature, or null for the server's default
 * @param maxTokens          {@code max_tokens}, or null for the server's default
 * @param maxRetries         retries of a 429 or 5xx answer (so at most {@code 1 + maxRetries} requests)
 * @param tools              names of the enabled tools, each from {@link #KNOWN_TOOLS}, without repeats
 * @param runTimeout         see {@link AgentSettings#runTimeout()}: bounds the whole run, unlike {@code timeout}
 * @param vision             whether the model takes images (docs/behaviour.md §15.2); without it an image
 *                           reaches the model as its name only
 * @param imageUrls          {@code images: url}: hand the model a platform's URL for an image when anyone may
 *                           fetch it (Discord), instead of a data URL ({@code images: data-url}, the default)
 */
public record OpenAiSettings(String name, String baseUrl, String apiKey, String model, String systemPrompt,
                             boolean stream, Duration timeout, int maxHistoryMessages, Double temperature,
                             Integer maxTokens, int maxRetries, List<String> tools, Duration runTimeout,
                             boolean vision, boolean imageUrls)
        implements AgentSettings {

    public static final String DEFAULT_BASE_URL = "https://api.openai.com/v1";
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(120);
    public static final int DEFAULT_MAX_HISTORY_MESSAGES = 40;
    public static final int MAX_HISTORY_MESSAGES = 10_000;
    public static final int DEFAULT_MAX_RETRIES = 2;
    public static final int MAX_RETRIES = 10;
    /** The tools an agent may enable: the built-in ones. */
    public static final List<String> KNOWN_TOOLS = List.of("current_time");

    public OpenAiSettings {
        baseUrl = baseUrl == null ? null : baseUrl.strip();
        apiKey = apiKey == null ? "" : apiKey.strip();
        systemPrompt = systemPrompt == null ? "" : systemPrompt;
        List<String> named = tools == null ? List.of() : new ArrayList<>(tools);
        Violations violations = new Violations().name(name)
                .check(validBaseUrl(baseUrl), "baseUrl", "must be an absolute http or https URL without ?query or"
                        + " #fragment (like https://api.openai.com/v1)", baseUrl)
                .check(model != null && !model.isBlank(), "model", "must not be empty (e.g. model: gpt-4o-mini)", model)
                .check(timeout != null && timeout.isPositive(), "timeoutMs", "must be a duration > 0",
                        EchoSettings.millis(timeout))
                .check(maxHistoryMessages >= 0 && maxHistoryMessages <= MAX_HISTORY_MESSAGES, "maxHistoryMessages",
                        "must be an integer between 0 and " + MAX_HISTORY_MESSAGES, maxHistoryMessages)
                .check(temperature == null || temperature >= 0 && temperature <= 2, "temperature",
                        "must be a number between 0 and 2", temperature)
                .check(maxTokens == null || maxTokens >= 1, "maxTokens", "must be an integer >= 1", maxTokens)
                .check(maxRetries >= 0 && maxRetries <= MAX_RETRIES, "maxRetries",
                        "must be an integer between 0 and " + MAX_RETRIES, maxRetries)
                .runTimeout(runTimeout);
        for (int i = 0; i < named.size(); i++) {
            violations.check(KNOWN_TOOLS.contains(named.get(i)), "tools[" + i + "]",
                    "must be a built-in tool (" + String.join(", ", KNOWN_TOOLS) + ")", named.get(i), KNOWN_TOOLS);
        }
        violations.throwIfAny(name);
        tools = List.copyOf(new LinkedHashSet<>(named));
    }

    /** Without vision (docs/behaviour.md §15.2). */
    public OpenAiSettings(String name, String baseUrl, String apiKey, String model, String systemPrompt,
                          boolean stream, Duration timeout, int maxHistoryMessages, Double temperature,
                          Integer maxTokens, int maxRetries, List<String> tools, Duration runTimeout) {
        this(name, baseUrl, apiKey, model, systemPrompt, stream, timeout, maxHistoryMessages, temperature, maxTokens,
                maxRetries, tools, runTimeout, false, false);
    }

    public OpenAiSettings withVision(boolean on, boolean urls) {
        return new OpenAiSettings(name, baseUrl, apiKey, model, systemPrompt, stream, timeout, maxHistoryMessages,
                temperature, maxTokens, maxRetries, tools, runTimeout, on, urls);
    }

    /** With the default {@code runTimeoutMs}. */
    public OpenAiSettings(String name, String baseUrl, String apiKey, String model, String systemPrompt,
                          boolean stream, Duration timeout, int maxHistoryMessages, Double temperature,
                          Integer maxTokens, int maxRetries, List<String> tools) {
        this(name, baseUrl, apiKey, model, systemPrompt, stream, timeout, maxHistoryMessages, temperature, maxTokens,
                maxRetries, tools, DEFAULT_RUN_TIMEOUT);
    }

    /** Settings with every optional field at its default: no key, no system prompt, streaming. */
    public static OpenAiSettings defaults(String name, String baseUrl, String model) {
        return new OpenAiSettings(name, baseUrl, "", model, "", true, DEFAULT_TIMEOUT,
                DEFAULT_MAX_HISTORY_MESSAGES, null, null, DEFAULT_MAX_RETRIES, List.of());
    }

    @Override
    public String provider() {
        return "openai";
    }

    public OpenAiSettings withApiKey(String key) {
        return new OpenAiSettings(name, baseUrl, key, model, systemPrompt, stream, timeout, maxHistoryMessages,
                temperature, maxTokens, maxRetries, tools, runTimeout, vision, imageUrls);
    }

    public OpenAiSettings withSystemPrompt(String prompt) {
        return new OpenAiSettings(name, baseUrl, apiKey, model, prompt, stream, timeout, maxHistoryMessages,
                temperature, maxTokens, maxRetries, tools, runTimeout, vision, imageUrls);
    }

    public OpenAiSettings withStream(boolean on) {
        return new OpenAiSettings(name, baseUrl, apiKey, model, systemPrompt, on, timeout, maxHistoryMessages,
                temperature, maxTokens, maxRetries, tools, runTimeout, vision, imageUrls);
    }

    public OpenAiSettings withTimeout(Duration value) {
        return new OpenAiSettings(name, baseUrl, apiKey, model, systemPrompt, stream, value, maxHistoryMessages,
                temperature, maxTokens, maxRetries, tools, runTimeout, vision, imageUrls);
    }

    public OpenAiSettings withMaxHistoryMessages(int max) {
        return new OpenAiSettings(name, baseUrl, apiKey, model, systemPrompt, stream, timeout, max,
                temperature, maxTokens, maxRetries, tools, runTimeout, vision, imageUrls);
    }

    public OpenAiSettings withMaxRetries(int value) {
        return new OpenAiSettings(name, baseUrl, apiKey, model, systemPrompt, stream, timeout, maxHistoryMessages,
                temperature, maxTokens, value, tools, runTimeout, vision, imageUrls);
    }

    public OpenAiSettings withTools(List<String> names) {
        return new OpenAiSettings(name, baseUrl, apiKey, model, systemPrompt, stream, timeout, maxHistoryMessages,
                temperature, maxTokens, maxRetries, names, runTimeout, vision, imageUrls);
    }

    public OpenAiSettings withRunTimeout(Duration value) {
        return new OpenAiSettings(name, baseUrl, apiKey, model, systemPrompt, stream, timeout, maxHistoryMessages,
                temperature, maxTokens, maxRetries, tools, value, vision, imageUrls);
    }

    /** {@code <baseUrl>/chat/completions}, with no doubled slash. */
    public URI chatCompletionsUri() {
        String base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        return URI.create(base + "/chat/completions");
    }

    /** Like the record's, but the API key and any credentials in the base URL are redacted. */
    @Override
    public String toString() {
        return "OpenAiSettings[name=" + name + ", baseUrl=" + UrlRedactor.redact(baseUrl) + ", apiKey=" + (apiKey.isEmpty() ? "" : "***")
                + ", model=" + model + ", stream=" + stream + ", timeout=" + timeout + ", maxHistoryMessages="
                + maxHistoryMessages + ", temperature=" + temperature + ", maxTokens=" + maxTokens
                + ", maxRetries=" + maxRetries + ", tools=" + tools + ", runTimeout=" + runTimeout + ", vision=" + vision
                + ", imageUrls=" + imageUrls + "]";
    }

    /** Absolute http(s) with a server-based host, a valid port, and no query or fragment. */
    public static boolean validBaseUrl(String url) {
        if (url == null || url.isEmpty()) {
            return false;
        }
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            return (scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null
                    && uri.getPort() <= 65_535 && uri.getRawQuery() == null && uri.getRawFragment() == null
                    && !url.endsWith("?") && !url.endsWith("#");
        } catch (URISyntaxException e) {
            return false;
        }
    }
}
