package dev.laneway.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.config.ConfigException;
import dev.laneway.config.ConfigLoader;
import dev.laneway.config.LanewayConfig;
import dev.laneway.core.agent.settings.AgentSettings;
import dev.laneway.core.store.InMemorySessionStore;
import dev.laneway.core.time.Scheduler;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code laneway validate} and {@code laneway run} give the same verdict on every agent entry: a file
 * that validates builds its agents, and a file the agents would refuse does not validate. "Run" here
 * is what {@code run} does before it opens anything: load the file, then build each agent.
 */
class ValidateAgreesWithRunTest {

    /** Every key of every provider (besides {@code provider}), as the binder knows them. */
    private static final Map<String, List<String>> KEYS = Map.of(
            "echo", List.of("delayMs", "runTimeoutMs"),
            "openai", List.of("baseUrl", "apiKey", "model", "systemPrompt", "stream", "timeoutMs",
                    "maxHistoryMessages", "temperature", "maxTokens", "maxRetries", "tools", "runTimeoutMs"),
            "command", List.of("command", "timeoutMs", "runTimeoutMs"));

    /** Values at and around every rule's edges, of every type, as YAML flow text. */
    private static final List<String> VALUES = List.of("0", "-1", "1", "2", "10", "11", "40", "50", "10000", "10001",
            "2147483647", "99999999999", "0.5", "2.5", "-0.1", ".nan", ".inf", "\"\"", "\" \"", "1.5s", "0ms", "1ms",
            "2m", "24h", "25h", "abc", "true", "null", "[a]", "{x: 1}", "\"http://h/v1\"", "\"http://h/v1?x=1\"", "\"http://h/v1#f\"",
            "\"http://h/v1?\"", "\"https://h:99999/v1\"", "\"ftp://h/v1\"", "\"http:///v1\"", "\"http://h:8080/v1/\"",
            "\"h/v1\"", "[current_time]", "[current_time, current_time]", "[current-time]", "[my-agent, --json]",
            "[\" \"]", "[]", "[1, 2]", "gpt-4o-mini");

    @Property(tries = 1500)
    void aFileThatValidates_buildsItsAgents(@ForAll("agentFiles") String yaml) {
        assertEquals(validates(yaml), runs(yaml), yaml);
    }

    /** Bindings and fallbacks (docs/behaviour.md §13): a file that validates builds its agent roster. */
    @Property(tries = 500)
    void aFileWithBindingsAndFallbacksThatValidates_buildsItsRoster(@ForAll("routedFiles") String yaml) {
        boolean validates = validates(yaml);
        boolean builds = validates && rosterBuilds(yaml);
        net.jqwik.api.statistics.Statistics.label("validates").collect(validates);
        assertEquals(validates, builds, yaml);
    }

    @Provide
    Arbitrary<String> routedFiles() {
        // mostly names of the list (x is none) and fallbacks on a and b only, so a fair share validates
        Arbitrary<String> name = Arbitraries.frequency(Tuple.of(6, "a"), Tuple.of(6, "b"), Tuple.of(6, "c"), Tuple.of(1, "x"));
        Arbitrary<String> fallback = name.list().ofMaxSize(2).map(names -> names.isEmpty() ? ""
                : ", fallback: [" + String.join(", ", names) + "]");
        Arbitrary<String> condition = Arbitraries.of("channel: discord", "channel: slack", "channel: nope", "guild: \"1\"",
                "workspace: T1", "chat: \"7\"", "thread: t", "dm: true", "dm: false", "account: default");
        Arbitrary<String> binding = Combinators.combine(condition.list().ofMinSize(1).ofMaxSize(3), name)
                .as((conditions, agent) -> "    - { " + conditions.stream().map(c -> c + ", ").collect(Collectors.joining())
                        + "agent: " + agent + " }\n");
        Arbitrary<String> defaultAgent = Arbitraries.frequency(Tuple.of(8, "a"), Tuple.of(4, "b"), Tuple.of(1, "x"));
        return Combinators.combine(fallback, fallback, binding.list().ofMaxSize(2), defaultAgent)
                .as((fa, fb, bindings, agent) -> "agents:\n  defaults: { agent: " + agent + " }\n"
                        + "  list:\n    a: { provider: echo" + fa + " }\n    b: { provider: echo" + fb + " }\n"
                        + "    c: { provider: echo }\n"
                        + (bindings.isEmpty() ? "" : "  bindings:\n" + String.join("", bindings)));
    }

    private static boolean rosterBuilds(String yaml) {
        Scheduler idle = (delay, task) -> Scheduler.Cancellable.NONE;
        try {
            LanewayConfig config = ConfigLoader.parse(yaml, "laneway.yaml", Map.of());
            AgentFactory.roster(config.agents(), new InMemorySessionStore(), idle, InstantSource.system(),
                    dev.laneway.agents.pool.ProviderPools.unnamed(InstantSource.system(), idle));
            return true;
        } catch (ConfigException | IllegalArgumentException e) {
            return false;
        }
    }

    @Test
    void theReviewedDisagreements_areRefusedByBoth() {
        for (String entry : List.of(
                "{ provider: openai, model: m, maxRetries: 50 }",
                "{ provider: openai, model: m, timeoutMs: 0 }",
                "{ provider: command, command: [x], timeoutMs: 0 }",
                "{ provider: echo, runTimeoutMs: 0 }",
                "{ provider: openai, model: m, runTimeoutMs: 25h }",
                "{ provider: openai, model: m, baseUrl: \"http://h/v1?api-version=1\" }",
                "{ provider: openai, model: m, baseUrl: \"http://h/v1#top\" }")) {
            String yaml = "agents: { list: { assistant: " + entry + " } }";
            assertEquals(List.of(false, false), List.of(validates(yaml), runs(yaml)), yaml);
        }
    }

    @Test
    void validateCommand_exitsTwoForAFileRunWouldRefuse(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("laneway.yaml");
        Files.writeString(file, "agents: { list: { assistant: { provider: openai, model: m, maxRetries: 50 } } }\n");
        ValidateCommand validate = new ValidateCommand();
        validate.config = file;
        PrintStream err = System.err;
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            assertEquals(2, validate.call());
        } finally {
            System.setErr(err);
        }
        assertTrue(captured.toString(StandardCharsets.UTF_8).contains(
                "agents.list.assistant.maxRetries: must be an integer between 0 and 10, got 50 (line 1, column 72)"),
                captured.toString(StandardCharsets.UTF_8));
    }

    @Provide
    Arbitrary<String> agentFiles() {
        Arbitrary<String> names = Arbitraries.of("assistant", "bot", "\" \"", "\"a b\"", "\"ü\"");
        return Combinators.combine(names, Arbitraries.of(KEYS.keySet().stream().sorted().toList()), Arbitraries.integers().between(0, 4))
                .flatAs((name, provider, count) -> entries(provider, count)
                        .map(body -> "agents:\n  list:\n    " + name + ": { provider: " + provider + body + " }\n"));
    }

    /** {@code count} random keys of the provider, each with a random value; openai/command get their required key mostly. */
    private static Arbitrary<String> entries(String provider, int count) {
        Arbitrary<String> pair = Combinators.combine(Arbitraries.of(KEYS.get(provider)), Arbitraries.of(VALUES))
                .as((key, value) -> key + ": " + value);
        Arbitrary<String> required = switch (provider) {
            case "openai" -> Arbitraries.of(", model: m", "");
            case "command" -> Arbitraries.of(", command: [my-agent]", "");
            default -> Arbitraries.just("");
        };
        return Combinators.combine(required, pair.list().ofSize(count))
                .as((req, pairs) -> req + pairs.stream().map(p -> ", " + p).collect(Collectors.joining()));
    }

    private static boolean validates(String yaml) {
        try {
            ConfigLoader.parse(yaml, "laneway.yaml", Map.of());
            return true;
        } catch (ConfigException e) {
            return false;
        }
    }

    private static boolean runs(String yaml) {
        LanewayConfig config;
        try {
            config = ConfigLoader.parse(yaml, "laneway.yaml", Map.of());
        } catch (ConfigException e) {
            return false; // run exits 2 here too
        }
        Scheduler idle = (delay, task) -> Scheduler.Cancellable.NONE;
        try {
            for (AgentSettings agent : config.agents().list().values()) {
                AgentFactory.create(agent, new InMemorySessionStore(), idle, InstantSource.system());
            }
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
