package dev.laneway.agents.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import org.junit.jupiter.api.Test;

class CurrentTimeToolTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final CurrentTimeTool tool = new CurrentTimeTool(InstantSource.fixed(Instant.parse("2030-06-01T12:00:00Z")));

    @Test
    void withoutArguments_returnsTheInjectedInstantInUtc() throws Exception {
        assertEquals("2030-06-01T12:00:00Z", tool.call(JSON.readTree("{}")));
    }

    @Test
    void withATimezone_returnsTheLocalTimeWithItsOffset() throws Exception {
        assertEquals("2030-06-01T14:00:00+02:00", tool.call(JSON.readTree("{\"timezone\":\"Europe/Berlin\"}")));
    }

    @Test
    void unknownTimezone_isAnErrorTheModelCanRead() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> tool.call(JSON.readTree("{\"timezone\":\"Mars/Olympus\"}")));
        assertEquals("unknown timezone 'Mars/Olympus'", e.getMessage());
    }

    @Test
    void schema_isAnObjectWithAnOptionalTimezone() {
        assertEquals("object", tool.parametersSchema().get("type").asText());
        assertTrue(tool.parametersSchema().get("properties").has("timezone"));
    }

    @Test
    void registry_selectsConfiguredToolsAndNamesUnknownOnes() {
        ToolRegistry builtIns = ToolRegistry.builtIns(InstantSource.system());

        assertEquals(List.of("current_time"), builtIns.select(List.of("current_time")).all().stream()
                .map(Tool::name).toList());
        assertTrue(builtIns.select(List.of()).isEmpty());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> builtIns.select(List.of("rm_rf")));
        assertEquals("unknown tool 'rm_rf' (known: current_time)", e.getMessage());
    }
}
