package dev.laneway.config;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.laneway.config.KeySpec.Either;
import dev.laneway.config.KeySpec.Leaf;
import dev.laneway.config.KeySpec.ListOf;
import dev.laneway.config.KeySpec.MapOf;
import dev.laneway.config.KeySpec.Obj;
import dev.laneway.config.KeySpec.Variants;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every value {@link ConfigKeys} describes is read by the binders as that kind of value: a file that
 * gives the key a value of the wrong kind (a list where a scalar belongs, a mapping where a list does),
 * inside an otherwise valid file, is refused by {@code validate} with a problem at exactly that key,
 * and by the schema (docs/configuration.md §18.1, D160). A key the description lists but no binder
 * reads, or reads as another kind, fails here.
 */
class ConfigKeysAgreeWithValidateTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Schema SCHEMA =
            SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(ConfigSchema.schema());

    /** The smallest valid content of an item or entry, so that only the key under test is wrong. */
    private static Map<String, Object> base(Obj obj) {
        Map<String, Object> base = new LinkedHashMap<>();
        if (obj == ConfigKeys.JOB) {
            base.put("id", "a");
            base.put("every", "5m");
            base.put("prompt", "p");
            base.put("target", Map.of("channel", "console", "chat", "c"));
        } else if (obj == ConfigKeys.TARGET) {
            base.put("channel", "console");
            base.put("chat", "c");
        } else if (obj == ConfigKeys.RULE) {
            base.put("class", "normal");
        } else if (obj == ConfigKeys.BINDING) {
            base.put("agent", "assistant");
        } else if (obj == ConfigKeys.PROVIDER_ENTRY) {
            base.put("model", "m");
        } else if (obj == ConfigKeys.OPENAI) {
            base.put("provider", "openai");
            base.put("model", "m");
        } else if (obj == ConfigKeys.COMMAND) {
            base.put("provider", "command");
            base.put("command", List.of("x"));
        } else if (obj == ConfigKeys.ECHO) {
            base.put("provider", "echo");
        }
        return base;
    }

    static Stream<Arguments> wrongKinds() {
        List<Arguments> cases = new ArrayList<>();
        walk(ConfigKeys.ROOT, "", base(ConfigKeys.ROOT), inner -> inner, cases);
        return cases.stream();
    }

    private static void walk(Obj obj, String path, Map<String, Object> base, UnaryOperator<Object> wrap,
                             List<Arguments> cases) {
        for (KeySpec key : obj.keys()) {
            String keyPath = path.isEmpty() ? key.name() : path + "." + key.name();
            UnaryOperator<Object> under = inner -> {
                Map<String, Object> map = new LinkedHashMap<>(base);
                if (key.name().equals("cron")) {
                    map.remove("every"); // exactly one of the two
                }
                map.put(key.name(), inner);
                return wrap.apply(map);
            };
            value(key, keyPath, under, cases);
        }
    }

    private static void value(KeySpec spec, String path, UnaryOperator<Object> under, List<Arguments> cases) {
        switch (spec) {
            case Leaf leaf -> cases.add(Arguments.of(path, under.apply(wrongKind(leaf))));
            case Obj obj -> walk(obj, path, base(obj), under, cases);
            case MapOf map -> {
                Map<String, Object> none = new LinkedHashMap<>();
                walk(new Obj("", map.fixed(), List.of(), ""), path, none, under, cases);
                String name = map.names() == null ? "x" : "console";
                value(map.value(), path + "." + name, inner -> under.apply(Map.of(name, inner)), cases);
            }
            case ListOf list -> value(list.item(), path + "[0]", inner -> under.apply(List.of(inner)), cases);
            case Variants variants -> variants.byWord().values().forEach(agent ->
                    walk(agent, path + ".x", base(agent), inner -> under.apply(Map.of("x", inner)), cases));
            case Either either -> {
                cases.add(Arguments.of(path, under.apply(List.of(1, 2))));
                walk(either.mapping(), path, base(either.mapping()), under, cases);
            }
        }
    }

    /** A value of the wrong kind for {@code leaf}: a list for a scalar, a mapping for a list. */
    private static Object wrongKind(Leaf leaf) {
        return leaf.type() == KeySpec.Type.STRINGS ? Map.of("k", 1) : List.of(1, 2);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wrongKinds")
    void aValueOfTheWrongKind_isRefusedAtItsKey_byValidateAndByTheSchema(String path, Object tree) throws Exception {
        String yaml = YAML.writeValueAsString(tree);
        try {
            ConfigLoader.parse(yaml, "keys.yaml", Map.of());
            fail("validate accepted " + path + " of the wrong kind:\n" + yaml);
        } catch (ConfigException e) {
            assertTrue(e.problems().stream().anyMatch(p -> p.path().equals(path)),
                    "no problem at " + path + ": " + e.getMessage() + "\n" + yaml);
        }
        assertFalse(SCHEMA.validate(YAML.readTree(yaml)).isEmpty(), "the schema accepts " + path + ":\n" + yaml);
    }
}
