package dev.laneway.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.laneway.config.ConfigSchema;
import org.junit.jupiter.api.Test;

/** {@code laneway config schema} prints the generated schema (docs/configuration.md §18). */
class ConfigSchemaCommandTest {

    @Test
    void printsTheSchemaAsJson_exit0() throws Exception {
        CliRun run = CliRun.of("config", "schema");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(ConfigSchema.json(), run.out());
        JsonNode schema = new ObjectMapper().readTree(run.out());
        assertEquals("https://json-schema.org/draft/2020-12/schema", schema.get("$schema").asText());
        assertEquals(8787, schema.at("/properties/gateway/properties/http/properties/port/default").asInt());
    }
}
