package dev.laneway.core.agent.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class CommandAndEchoSettingsTest {

    @Test
    void command_needsAProgramAndAPositiveTimeout() {
        InvalidAgentSettingsException e = assertThrows(InvalidAgentSettingsException.class,
                () -> new CommandSettings("shell", List.of(" ", "--json"), Duration.ZERO));

        assertEquals(List.of("command", "timeoutMs"), e.violations().stream().map(SettingViolation::key).toList());
        assertThrows(InvalidAgentSettingsException.class,
                () -> new CommandSettings("shell", List.of(), CommandSettings.DEFAULT_TIMEOUT));
        assertEquals(List.of("my-agent"),
                new CommandSettings("shell", List.of("my-agent"), Duration.ofMillis(1)).command());
    }

    @Test
    void echo_acceptsNoDelayButNotANegativeOne() {
        assertEquals(Duration.ZERO, EchoSettings.defaults("demo").delay());
        InvalidAgentSettingsException e = assertThrows(InvalidAgentSettingsException.class,
                () -> new EchoSettings("demo", Duration.ofMillis(-1)));
        assertEquals("agents.list.demo.delayMs: must be a duration >= 0, got '-1'", e.getMessage());
    }
}
