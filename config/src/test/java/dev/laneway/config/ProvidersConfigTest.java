package dev.laneway.config;

import static dev.laneway.config.Configs.onlyProblem;
import static dev.laneway.config.Configs.parse;
import static dev.laneway.config.Configs.problems;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.agent.settings.OpenAiSettings;
import dev.laneway.core.agent.settings.ProviderSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code providers:} section and an agent's {@code endpoint:} (docs/configuration.md §15). */
class ProvidersConfigTest {

    private static final String HOSTED = """
            providers:
              hosted:
                baseUrl: https://api.example/v1
                apiKey: ${KEY}
                model: big
                maxConcurrent: 16
                rpm: 500
                tpm: 200000
                adaptive: true
                circuit: { failures: 4, window: 30s, openFor: 45s }
            """;

    @Test
    void everyKeyIsRead_andAnAgentNamingTheEndpointCallsIt() throws Exception {
        LanewayConfig config = parse(HOSTED + """
                agents:
                  list:
                    assistant: { provider: openai, endpoint: hosted, systemPrompt: Be brief. }
                """, Map.of("KEY", "sk-hosted"));
        ProviderSettings hosted = config.providers().get("hosted");
        assertEquals(new ProviderSettings("hosted", "https://api.example/v1", "sk-hosted", "big", 16, 500, 200_000, true,
                new ProviderSettings.Circuit(4, Duration.ofSeconds(30), Duration.ofSeconds(45))), hosted);
        OpenAiSettings agent = (OpenAiSettings) config.agents().list().get("assistant");
        assertEquals("https://api.example/v1", agent.baseUrl());
        assertEquals("sk-hosted", agent.apiKey());
        assertEquals("big", agent.model());
        assertEquals(hosted.endpointKey(),
                ProviderSettings.endpointKey(agent.baseUrl(), agent.apiKey(), agent.model()), "the same pool");
    }

    @Test
    void theIssuesExampleWithInlineEndpointsStillLoads_eachAgentItsOwnPool() throws Exception {
        LanewayConfig config = parse("""
                agents:
                  defaults: { agent: main }
                  list:
                    main:  { provider: openai, baseUrl: "https://api.example/v1", apiKey: "${KEY}", model: big }
                    local: { provider: openai, baseUrl: "http://127.0.0.1:11434/v1", apiKey: none, model: small }
                """, Map.of("KEY", "sk-x"));
        assertEquals(Map.of(), config.providers());
        assertEquals(2, config.agents().list().size());
    }

    @Test
    void defaults_noLimitsAndTheDefaultCircuit() throws Exception {
        ProviderSettings p = parse("providers: { local: { baseUrl: 'http://127.0.0.1:11434/v1', model: small } }")
                .providers().get("local");
        assertEquals(0, p.maxConcurrent());
        assertEquals(0, p.rpm());
        assertEquals(0, p.tpm());
        assertFalse(p.adaptive());
        assertEquals(ProviderSettings.Circuit.DEFAULTS, p.circuit());
        assertEquals("", p.apiKey());
    }

    @Test
    void anUnknownEndpoint_isReportedWithADidYouMean_atItsLineAndColumn() {
        assertEquals("laneway.yaml: agents.list.assistant.endpoint: no endpoint named \"hostd\" in providers, did you"
                + " mean \"hosted\"? (providers has: hosted) (line 13, column 46)", onlyProblem(HOSTED.replace("${KEY}", "k") + """
                agents:
                  list:
                    assistant: { provider: openai, endpoint: hostd }
                """));
        assertTrue(onlyProblem("""
                agents:
                  list:
                    assistant: { provider: openai, endpoint: hosted }
                """).contains("no endpoint named \"hosted\" in providers (there is no providers: section)"));
    }

    @Test
    void anAgentWithAnEndpoint_mayNotSetItsUrlKeyOrModelToo() {
        List<ConfigProblem> found = problems(HOSTED.replace("${KEY}", "k") + """
                agents:
                  list:
                    assistant: { provider: openai, endpoint: hosted, model: other, apiKey: sk-other }
                """);
        assertEquals(List.of("agents.list.assistant.apiKey", "agents.list.assistant.model"),
                found.stream().map(ConfigProblem::path).sorted().toList());
        assertTrue(found.getFirst().message().contains("comes from providers.hosted"), found.toString());
    }

    @Test
    void limitsOutOfRange_areReportedAtTheirValues() {
        List<ConfigProblem> found = problems("""
                providers:
                  p:
                    model: m
                    maxConcurrent: -1
                    rpm: 99999999999
                    tpm: lots
                    circuit: { failures: 5000, window: 0, openFor: 2h }
                """);
        assertEquals(List.of(
                "providers.p.maxConcurrent: must be an integer between 0 and 10000, got -1 (line 4, column 20)",
                "providers.p.rpm: must be an integer between 0 and 1000000, got 99999999999 (line 5, column 10)",
                "providers.p.tpm: must be an integer between 0 and 1000000000, got \"lots\" (line 6, column 10)",
                "providers.p.circuit.failures: must be an integer between 0 and 1000, got 5000 (line 7, column 26)",
                "providers.p.circuit.window: must be between 1s and 1h, got 0ms (line 7, column 40)",
                "providers.p.circuit.openFor: must be between 1s and 1h, got 7200000ms (line 7, column 52)"),
                found.stream().map(p -> p.format("").substring(2)).toList());
    }

    @Test
    void adaptiveWithoutAMaximum_aBadUrl_aMissingModel_andAnUnknownKey_areReported() {
        List<String> found = problems("""
                providers:
                  a: { model: m, adaptive: true }
                  b: { baseUrl: "ftp://x", model: m }
                  c: { baseUrl: "https://x/v1" }
                  d: { model: m, maxConcurent: 3 }
                """).stream().map(p -> p.format("").substring(2)).toList();
        assertEquals(4, found.size(), found.toString());
        assertTrue(found.get(0).startsWith("providers.a.adaptive: needs maxConcurrent"), found.get(0));
        assertTrue(found.get(1).startsWith("providers.b.baseUrl: must be an absolute http or https URL"), found.get(1));
        assertTrue(found.get(2).startsWith("providers.c.model: required"), found.get(2));
        assertTrue(found.get(3).startsWith("providers.d.maxConcurent: unknown key, did you mean \"maxConcurrent\"?"),
                found.get(3));
    }

    @Test
    void twoEntriesForOneEndpoint_areAnError() {
        assertTrue(onlyProblem("""
                providers:
                  one: { baseUrl: "https://x/v1", apiKey: k, model: m }
                  two: { baseUrl: "https://x/v1/", apiKey: k, model: m }
                """).contains("providers.two: names the same endpoint (base URL, key and model) as providers.one"));
    }

    @Test
    void anAgentNamingAnEntryThatHasProblems_isNotReportedTwice() {
        assertEquals(1, problems("""
                providers:
                  hosted: { model: m, rpm: -3 }
                agents:
                  list:
                    assistant: { provider: openai, endpoint: hosted }
                """).size());
    }

    @Test
    void configShow_printsProviders_withTheKeyMasked() throws Exception {
        String yaml = ConfigPrinter.effectiveYaml(parse(HOSTED, Map.of("KEY", "sk-very-secret")));
        assertTrue(yaml.contains("providers:"), yaml);
        assertTrue(yaml.contains("maxConcurrent: 16"), yaml);
        assertFalse(yaml.contains("sk-very-secret"), yaml);
    }
}
