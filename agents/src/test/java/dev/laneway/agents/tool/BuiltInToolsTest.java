package dev.laneway.agents.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.laneway.core.agent.settings.OpenAiSettings;
import java.time.InstantSource;
import org.junit.jupiter.api.Test;

class BuiltInToolsTest {

    @Test
    void theBuiltInTools_areExactlyTheOnesTheSettingsAllow() {
        assertEquals(OpenAiSettings.KNOWN_TOOLS,
                ToolRegistry.builtIns(InstantSource.system()).all().stream().map(Tool::name).toList());
    }
}
