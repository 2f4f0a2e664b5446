package dev.laneway.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** The loader never fails with anything but a located {@link ConfigException}. */
class ConfigLoaderPropertyTest {

    @Property(tries = 500)
    void anyText_eitherLoadsOrFailsWithProblems(@ForAll("yamlish") String text) {
        try {
            ConfigLoader.parse(text, "fuzz.yaml", Map.of("A", "1"));
        } catch (ConfigException e) {
            assertFalse(e.problems().isEmpty());
            assertEquals(e.problems().size(), e.getMessage().lines().count());
        }
    }

    @Property(tries = 200)
    void queueSettings_roundTripThroughThePrinter(@ForAll QueueMode mode, @ForAll DropPolicy drop,
                                                  @ForAll @IntRange(min = 1, max = 10_000) int cap,
                                                  @ForAll @IntRange(min = 0, max = 600_000) int debounceMs)
            throws ConfigException {
        LanewayConfig config = ConfigLoader.parse("messages: { queue: { mode: " + mode.id() + ", drop: " + drop.id()
                + ", cap: " + cap + ", debounceMs: " + debounceMs + " } }", "q.yaml", Map.of());
        LanewayConfig reloaded = ConfigLoader.parse(ConfigPrinter.effectiveYaml(config), "q.yaml", Map.of());
        assertEquals(config, reloaded);
    }

    @Provide
    Arbitrary<String> yamlish() {
        Arbitrary<String> pieces = Arbitraries.of("gateway:", "messages:", "queue:", "  ", "    ", "\n", "cap: ", "0", "-1",
                "mode: ", "steer", "[", "]", "{", "}", ",", ": ", "- ", "\"", "'", "#", "${A}", "${B}", "${", "&x ", "*x",
                "agents:", "list:", "provider: ", "openai", "echo", "tools: ", "debounceMs: ", "1.5s", "lanes:", "\t", "---\n",
                "channels:", "telegram:", "enabled: ", "true", "token: ", "byChannel:", "x", "1e400", "0x10", "~", "!!str ");
        return pieces.list().ofMaxSize(40).map(list -> String.join("", list));
    }
}
