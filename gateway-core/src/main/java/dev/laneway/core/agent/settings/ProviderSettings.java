package dev.laneway.core.agent.settings;

import dev.laneway.core.UrlRedactor;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Objects;

/**
 * One model endpoint and the limits its runs share (a {@code providers:} entry, docs/configuration.md
 * §14; docs/behaviour.md §12): every run of every agent that calls this base URL with this key and
 * model waits for the same pool. An agent without a named endpoint gets a pool of its own with
 * {@link #unlimited} settings.
 *
 * @param name          the entry's name in {@code providers}, or {@code agent:<name>} for an agent's own pool
 * @param baseUrl       as {@code OpenAiSettings.baseUrl}
 * @param apiKey        as {@code OpenAiSettings.apiKey}; never logged
 * @param model         the model id
 * @param maxConcurrent model calls in flight at once; 0: no limit of its own. With {@code adaptive}, the
 *                      most the limit grows to
 * @param rpm           model calls started per minute; 0: none
 * @param tpm           tokens (prompt and completion, as the provider reports them) per minute; 0: none
 * @param adaptive      the concurrency limit shrinks on 429s and timeouts and grows back with successes
 * @param circuit       when the pool stops calling a failing endpoint
 */
public record ProviderSettings(String name, String baseUrl, String apiKey, String model, int maxConcurrent, int rpm,
                               int tpm, boolean adaptive, Circuit circuit) {

    public static final int MAX_CONCURRENT = 10_000;
    public static final int MAX_RPM = 1_000_000;
    public static final int MAX_TPM = 1_000_000_000;

    /**
     * The circuit breaker: it opens once {@code window} holds at least {@code failures} calls and at
     * least half of them failed (5xx, timeouts, connection errors); while open, runs fail at once; after
     * {@code openFor} one probe call decides: success closes it, failure opens it again.
     *
     * @param failures the fewest calls in the window before it may open; 0 turns the breaker off
     * @param window   how far back calls count (1 s to 1 h)
     * @param openFor  how long it stays open before the probe (1 s to 1 h)
     */
    public record Circuit(int failures, Duration window, Duration openFor) {

        public static final int MAX_FAILURES = 1_000;
        public static final Duration MIN_DURATION = Duration.ofSeconds(1);
        public static final Duration MAX_DURATION = Duration.ofHours(1);
        public static final Circuit DEFAULTS = new Circuit(5, Duration.ofSeconds(60), Duration.ofSeconds(30));
        public static final Circuit OFF = new Circuit(0, Duration.ofSeconds(60), Duration.ofSeconds(30));

        public Circuit {
            if (failures < 0 || failures > MAX_FAILURES) {
                throw new IllegalArgumentException("circuit.failures must be 0.." + MAX_FAILURES + ", got " + failures);
            }
            requireWithin("circuit.window", window);
            requireWithin("circuit.openFor", openFor);
        }

        public boolean enabled() {
            return failures > 0;
        }

        /** Whether a duration is legal for {@code window} and {@code openFor}. */
        public static boolean within(Duration value) {
            return value != null && value.compareTo(MIN_DURATION) >= 0 && value.compareTo(MAX_DURATION) <= 0;
        }

        private static void requireWithin(String key, Duration value) {
            if (!within(value)) {
                throw new IllegalArgumentException(key + " must be between 1s and 1h, got " + value);
            }
        }
    }

    public ProviderSettings {
        Objects.requireNonNull(name, "name");
        apiKey = apiKey == null ? "" : apiKey.strip();
        baseUrl = baseUrl == null ? null : baseUrl.strip();
        Objects.requireNonNull(circuit, "circuit");
        if (!OpenAiSettings.validBaseUrl(baseUrl)) {
            throw new IllegalArgumentException("providers." + name + ".baseUrl must be an absolute http or https URL"
                    + " without ?query or #fragment, got " + UrlRedactor.redact(String.valueOf(baseUrl)));
        }
        if (model == null || model.isBlank()) {
            throw new IllegalArgumentException("providers." + name + ".model must not be empty");
        }
        requireRange(name, "maxConcurrent", maxConcurrent, MAX_CONCURRENT);
        requireRange(name, "rpm", rpm, MAX_RPM);
        requireRange(name, "tpm", tpm, MAX_TPM);
        if (adaptive && maxConcurrent == 0) {
            throw new IllegalArgumentException("providers." + name + ".adaptive needs maxConcurrent, the most the"
                    + " limit may grow to");
        }
    }

    private static void requireRange(String name, String key, int value, int max) {
        if (value < 0 || value > max) {
            throw new IllegalArgumentException("providers." + name + "." + key + " must be 0.." + max + ", got " + value);
        }
    }

    /** An agent's own pool: no limits of its own, the default circuit breaker. */
    public static ProviderSettings unlimited(String name, String baseUrl, String apiKey, String model) {
        return new ProviderSettings(name, baseUrl, apiKey, model, 0, 0, 0, false, Circuit.DEFAULTS);
    }

    /** The pool of an agent that names no endpoint: keyed like a named one, by what it calls. */
    public static ProviderSettings of(OpenAiSettings agent) {
        return unlimited("agent:" + agent.name(), agent.baseUrl(), agent.apiKey(), agent.model());
    }

    /** What identifies the endpoint: base URL, key and model, hashed so the key appears nowhere. */
    public String endpointKey() {
        return endpointKey(baseUrl, apiKey, model);
    }

    /**
     * SHA-256 of base URL (without a trailing {@code /}), key and model, as 16 hex digits: what pools
     * are found by. Never log the parts; the hash is safe to show.
     */
    public static String endpointKey(String baseUrl, String apiKey, String model) {
        String base = baseUrl.strip();
        while (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        String joined = base + "\n" + (apiKey == null ? "" : apiKey.strip()) + "\n" + model;
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(joined.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** Like the record's, without the key and with URL credentials masked. */
    @Override
    public String toString() {
        return "ProviderSettings[name=" + name + ", baseUrl=" + UrlRedactor.redact(baseUrl) + ", apiKey="
                + (apiKey.isEmpty() ? "" : "***") + ", model=" + model + ", maxConcurrent=" + maxConcurrent + ", rpm="
                + rpm + ", tpm=" + tpm + ", adaptive=" + adaptive + ", circuit=" + circuit + "]";
    }
}
