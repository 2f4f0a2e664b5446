package dev.laneway.config;

import dev.laneway.core.agent.settings.OpenAiSettings;
import dev.laneway.core.agent.settings.ProviderSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Binds {@code providers:} (docs/configuration.md §15): named model endpoints and the limits their
 * runs share. Every bad value is reported at its line and column; an entry with a problem is left
 * out (agents naming it get no second error for it). Two entries naming the same endpoint (base URL,
 * key and model) are an error: they would be one pool with two sets of limits.
 */
final class ProvidersBinder {

    static final List<String> KEYS = List.of("baseUrl", "apiKey", "model", "maxConcurrent", "rpm", "tpm", "adaptive",
            "circuit");

    /**
     * The bound entries.
     *
     * @param valid    the entries without problems, by name, in file order
     * @param declared every entry's name, valid or not
     */
    record Providers(Map<String, ProviderSettings> valid, List<String> declared) {
        static final Providers NONE = new Providers(Map.of(), List.of());
    }

    private ProvidersBinder() {
    }

    static Providers bind(Section providers) {
        Map<String, ProviderSettings> valid = new LinkedHashMap<>();
        Map<String, String> byEndpoint = new HashMap<>();
        for (String name : providers.keys()) {
            int before = providers.problems().count();
            ProviderSettings settings = provider(providers, name);
            if (settings == null || providers.problems().count() > before) {
                continue;
            }
            String other = byEndpoint.putIfAbsent(settings.endpointKey(), name);
            if (other != null) {
                providers.problemAtKey(name, "names the same endpoint (base URL, key and model) as providers." + other
                        + "; give each endpoint one entry");
                continue;
            }
            valid.put(name, settings);
        }
        return new Providers(valid, providers.keys());
    }

    private static ProviderSettings provider(Section providers, String name) {
        Section entry = providers.section(name, KEYS.toArray(String[]::new));
        String baseUrl = entry.string("baseUrl", OpenAiSettings.DEFAULT_BASE_URL);
        if (!OpenAiSettings.validBaseUrl(baseUrl == null ? null : baseUrl.strip())) {
            entry.problem("baseUrl", "must be an absolute http or https URL without ?query or #fragment (like"
                    + " https://api.openai.com/v1), got " + YamlNode.quote(String.valueOf(baseUrl)));
        }
        String model = entry.string("model", null);
        if (model == null || model.isBlank()) {
            if (!entry.problems().reportedAt(entry.pathOf("model"))) {
                entry.problem("model", "required, not empty (e.g. model: gpt-4o-mini)");
            }
        }
        int maxConcurrent = entry.integer("maxConcurrent", 0, 0, ProviderSettings.MAX_CONCURRENT);
        int rpm = entry.integer("rpm", 0, 0, ProviderSettings.MAX_RPM);
        int tpm = entry.integer("tpm", 0, 0, ProviderSettings.MAX_TPM);
        boolean adaptive = entry.bool("adaptive", false);
        if (adaptive && maxConcurrent == 0 && !entry.problems().reportedAt(entry.pathOf("maxConcurrent"))) {
            entry.problem("adaptive", "needs maxConcurrent, the most the limit may grow to (e.g. maxConcurrent: 32)");
        }
        ProviderSettings.Circuit circuit = circuit(entry.section("circuit", "failures", "window", "openFor"));
        if (model == null || model.isBlank() || !OpenAiSettings.validBaseUrl(baseUrl.strip())
                || adaptive && maxConcurrent == 0) {
            return null; // reported above; the caller also drops an entry with any other problem
        }
        return new ProviderSettings(name, baseUrl, entry.string("apiKey", ""), model, maxConcurrent, rpm, tpm, adaptive,
                circuit);
    }

    private static ProviderSettings.Circuit circuit(Section circuit) {
        ProviderSettings.Circuit d = ProviderSettings.Circuit.DEFAULTS;
        return new ProviderSettings.Circuit(
                circuit.integer("failures", d.failures(), 0, ProviderSettings.Circuit.MAX_FAILURES),
                within(circuit, "window", d.window()),
                within(circuit, "openFor", d.openFor()));
    }

    private static Duration within(Section section, String key, Duration defaultValue) {
        Duration value = section.duration(key, defaultValue);
        if (!ProviderSettings.Circuit.within(value)) {
            section.problem(key, "must be between 1s and 1h, got " + value.toMillis() + "ms");
            return defaultValue;
        }
        return value;
    }
}
