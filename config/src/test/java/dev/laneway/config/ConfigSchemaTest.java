package dev.laneway.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The JSON Schema of the configuration (docs/configuration.md §18) against a real validator: it is a
 * valid 2020-12 schema, it accepts every example config of the README and docs/, and it rejects the
 * broken configs the validator rejects.
 */
class ConfigSchemaTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private static final Schema SCHEMA = REGISTRY.getSchema(ConfigSchema.schema());
    private static final Pattern YAML_BLOCK = Pattern.compile("(?m)^( *)```yaml\\n(.*?)^\\1```", Pattern.DOTALL);

    @Test
    void theSchemaIsAValidDraft2020_12Schema() throws IOException {
        Schema meta = REGISTRY.getSchema(SchemaLocation.of(SpecificationVersion.DRAFT_2020_12.getDialectId()));
        JsonNode printed = JSON.readTree(ConfigSchema.json());
        assertEquals(List.of(), meta.validate(printed));
        assertEquals(ConfigSchema.DIALECT, printed.get("$schema").asText());
    }

    static Stream<Arguments> examples() throws IOException {
        List<Path> files = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        for (String channel : List.of("telegram", "discord", "slack")) {
            files.add(ROOT.resolve("channels").resolve(channel).resolve("README.md"));
        }
        List<Arguments> examples = new ArrayList<>();
        for (Path file : files) {
            String text = Files.readString(file);
            Matcher block = YAML_BLOCK.matcher(text);
            while (block.find()) {
                String indent = block.group(1);
                String yaml = block.group(2).lines().map(l -> l.startsWith(indent) ? l.substring(indent.length()) : l)
                        .reduce("", (a, b) -> a + b + "\n");
                int line = (int) text.substring(0, block.start()).lines().count() + 1;
                if (yaml.startsWith("display_information:")) {
                    continue; // a Slack app manifest (channels/slack/README.md), not a laneway.yaml
                }
                examples.add(Arguments.of(ROOT.relativize(file) + ":" + line, yaml));
            }
        }
        examples.add(Arguments.of("config-md-example.yaml", ConfigLoaderTest.resource("config-md-example.yaml")));
        return examples.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void everyExampleConfigInTheDocs_isValidForTheSchema(String where, String yaml) throws Exception {
        // Some examples are fragments (a job targeting a channel the fragment does not enable): the
        // schema checks each key on its own, as an editor does while the file is being written.
        assertEquals(List.of(), errors(yaml), where);
    }

    @Test
    void theDocsHaveExamplesToCheck() throws IOException {
        assertTrue(examples().count() >= 20, "the README and docs/ hold the example configs");
    }

    static Stream<Arguments> broken() {
        return Stream.of(
                Arguments.of("gatway: {}\n"),
                Arguments.of("gateway: { admision: {} }\n"),
                Arguments.of("gateway: { http: { port: 70000 } }\n"),
                Arguments.of("gateway: { http: { enabled: maybe } }\n"),
                Arguments.of("gateway: { store: { kind: postgres } }\n"),
                Arguments.of("gateway: { shutdownGraceMs: 10 seconds }\n"),
                Arguments.of("session: { dmScope: everyone }\n"),
                Arguments.of("lanes: { main: { maxConcurrent: 2 } }\n"),
                Arguments.of("lanes: { cron: { maxConcurrent: 0 } }\n"),
                Arguments.of("lanes: { cron: { maxConcurent: 2 } }\n"),
                Arguments.of("agents: { defaults: { maxConcurrent: 0 } }\n"),
                Arguments.of("agents: { list: { a: { delayMs: 5 } } }\n"),
                Arguments.of("agents: { list: { a: { provider: gemini } } }\n"),
                Arguments.of("agents: { list: { a: { provider: echo, model: m } } }\n"),
                Arguments.of("agents: { list: { a: { provider: openai, model: m, temperature: hot } } }\n"),
                Arguments.of("agents: { list: { a: { provider: openai, model: m, maxRetries: 11 } } }\n"),
                Arguments.of("agents: { list: { a: { provider: openai, model: m, tools: [shell] } } }\n"),
                Arguments.of("agents: { list: { a: { provider: openai, model: m, baseUrl: \"ftp://x\" } } }\n"),
                Arguments.of("agents: { list: { a: { provider: command, command: run-me } } }\n"),
                Arguments.of("agents: { bindings: [ { channel: discord } ] }\n"),
                Arguments.of("agents: { bindings: [ { channel: irc, agent: assistant } ] }\n"),
                Arguments.of("messages: { queue: { cap: 0 } }\n"),
                Arguments.of("messages: { queue: { mode: steerr } }\n"),
                Arguments.of("messages: { queue: { debounceMs: 1.5x } }\n"),
                Arguments.of("messages: { queue: { byChannel: { irc: collect } } }\n"),
                Arguments.of("messages: { queue: { byChannel: { discord: { mode: collect, cap: -1 } } } }\n"),
                Arguments.of("messages: { queue: { byChannel: { discord: [collect] } } }\n"),
                Arguments.of("messages: { inbound: { byChannel: { slack: soon } } }\n"),
                Arguments.of("messages: { steer: { scope: everyone } }\n"),
                Arguments.of("messages: { maxAnswerChars: 10 }\n"),
                Arguments.of("commands: { allowFrom: { irc: [\"1\"] } }\n"),
                Arguments.of("channels: { matrix: { enabled: true } }\n"),
                Arguments.of("channels: { discord: { gatewayUrl: \"https://gateway.example\" } }\n"),
                Arguments.of("channels: { telegram: { groups: { requireMention: sometimes } } }\n"),
                Arguments.of("scheduling: { mode: lottery }\n"),
                Arguments.of("scheduling: { backgroundShare: 2 }\n"),
                Arguments.of("scheduling: { classes: { urgent: {} } }\n"),
                Arguments.of("scheduling: { classes: { background: { overBudget: panic } } }\n"),
                Arguments.of("scheduling: { tenants: { weight: 0 } }\n"),
                Arguments.of("scheduling: { rules: [ { kinds: [group] } ] }\n"),
                Arguments.of("scheduling: { rules: [ { kinds: [broadcast], class: normal } ] }\n"),
                Arguments.of("schedules: { id: a }\n"),
                Arguments.of("schedules: [ { id: a, every: 5m, prompt: p } ]\n"),
                Arguments.of("schedules: [ { id: a, every: 5m, prompt: p, target: { channel: console } } ]\n"),
                Arguments.of("schedules: [ { id: a, every: 5m, prompt: p, target: { channel: console, chat: c },"
                        + " ifBusy: queue } ]\n"),
                Arguments.of("providers: { p: { baseUrl: \"http://127.0.0.1:1/v1\" } }\n"),
                Arguments.of("providers: { p: { model: m, rpm: -1 } }\n"),
                Arguments.of("providers: { p: { model: m, circuit: { failures: 2000 } } }\n"),
                Arguments.of("providers: { p: { model: m, limit: 3 } }\n"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("broken")
    void aConfigValidateRefuses_theSchemaRefusesToo(String yaml) throws IOException {
        assertThrows(ConfigException.class, () -> ConfigLoader.parse(yaml, "broken.yaml", Map.of()));
        assertFalse(errors(yaml).isEmpty(), "the schema accepts " + yaml);
    }

    @Test
    void environmentReferences_areAcceptedWhereverAValueIs() throws IOException {
        assertEquals(List.of(), errors("""
                gateway: { http: { port: "${PORT:-8787}", enabled: "${HTTP}" }, shutdownGraceMs: "${GRACE}" }
                messages: { queue: { mode: "${MODE}", cap: "${CAP}" } }
                channels: { telegram: { enabled: true, token: "${TELEGRAM_BOT_TOKEN}" } }
                """));
    }

    @Test
    void aKeyOfTheSpec_isAKeyOfTheSchema_withItsDefault() throws IOException {
        JsonNode schema = JSON.readTree(ConfigSchema.json());
        JsonNode port = schema.at("/properties/gateway/properties/http/properties/port");
        assertEquals(8787, port.get("default").asInt());
        assertEquals(65535, port.at("/anyOf/0/maximum").asInt());
        assertEquals("1h", schema.at("/properties/messages/properties/queue/properties/ttl/default").asText());
        assertTrue(schema.at("/properties/messages/properties/queue/properties/mode/anyOf/0/enum").toString()
                .contains("coalesce"), "aliases are words too");
    }

    private static List<Error> errors(String yaml) throws IOException {
        JsonNode tree = YAML.readTree(yaml);
        return SCHEMA.validate(tree == null || tree.isMissingNode() ? NullNode.getInstance() : tree);
    }
}
