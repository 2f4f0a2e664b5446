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
        KeySpec.Obj spec = ConfigKeys.PROVIDER_ENTRY;
        Section entry = providers.section(spec.named(name));
        String baseUrl = entry.string(spec.leaf("baseUrl"));
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
        int maxConcurrent = entry.integer(spec.leaf("maxConcurrent"));
        int rpm = entry.integer(spec.leaf("rpm"));
        int tpm = entry.integer(spec.leaf("tpm"));
        boolean adaptive = entry.bool(spec.leaf("adaptive"));
        if (adaptive && maxConcurrent == 0 && !entry.problems().reportedAt(entry.pathOf("maxConcurrent"))) {
            entry.problem("adaptive", "needs maxConcurrent, the most the limit may grow to (e.g. maxConcurrent: 32)");
        }
        ProviderSettings.Circuit circuit = circuit(entry.section(ConfigKeys.CIRCUIT));
        if (model == null || model.isBlank() || !OpenAiSettings.validBaseUrl(baseUrl.strip())
                || adaptive && maxConcurrent == 0) {
            return null; // reported above; the caller also drops an entry with any other problem
        }
        return new ProviderSettings(name, baseUrl, entry.string("apiKey", ""), model, maxConcurrent, rpm, tpm, adaptive,
                circuit);
    }

    private static ProviderSettings.Circuit circuit(Section circuit) {
        KeySpec.Obj spec = ConfigKeys.CIRCUIT;
        return new ProviderSettings.Circuit(
                circuit.integer(spec.leaf("failures")),
                within(circuit, spec.leaf("window")),
                within(circuit, spec.leaf("openFor")));
    }

    private static Duration within(Section section, KeySpec.Leaf key) {
        Duration value = section.duration(key);
        if (!ProviderSettings.Circuit.within(value)) {
            section.problem(key.name(), "must be between 1s and 1h, got " + value.toMillis() + "ms");
            return (Duration) key.defaultValue();
        }
        return value;
    }
}
