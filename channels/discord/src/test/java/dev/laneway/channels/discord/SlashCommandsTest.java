package dev.laneway.channels.discord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SlashCommandsTest {

    @Test
    void queueOptions_becomeACommandLine_modeFirst_thenDebounceCapDrop() {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("drop", "old");
        options.put("cap", "10");
        options.put("debounce", "2s");
        options.put("mode", "collect");

        assertEquals(Optional.of("/queue collect debounce:2s cap:10 drop:old"), SlashCommands.commandLine("queue", options));
    }

    @Test
    void queueWithoutOptions_showsTheSettings_andResetIsAMode() {
        assertEquals(Optional.of("/queue"), SlashCommands.commandLine("queue", Map.of()));
        assertEquals(Optional.of("/queue reset"), SlashCommands.commandLine("queue", Map.of("mode", "reset")));
        assertEquals(Optional.of("/queue status"), SlashCommands.commandLine("queue", Map.of("action", "status")));
        assertEquals(Optional.of("/queue cancel all"),
                SlashCommands.commandLine("queue", Map.of("action", "cancel all", "cap", "3")), "the action alone counts");
    }

    @Test
    void optionValues_areOneToken() {
        assertEquals(Optional.of("/queue debounce:1s"), SlashCommands.commandLine("queue", Map.of("debounce", " 1 s ")));
    }

    @Test
    void unicodeSpacesInAValue_neverSplitIt_soQueueNeverBecomesAnInlineDirective() {
        // a phone keyboard's no-break space, a narrow no-break space and an ideographic space
        assertEquals(Optional.of("/queue debounce:1s cap:10"),
                SlashCommands.commandLine("queue", Map.of("debounce", "1\u00A0s", "cap", "1\u202F0")));
        assertEquals(Optional.of("/queue collect"),
                SlashCommands.commandLine("queue", Map.of("mode", "collect", "debounce", "\u3000\u00A0")),
                "a value of spaces only is left out");
    }

    @Test
    void commandsWithoutOptions_andUnknownCommands() {
        assertEquals(Optional.of("/status"), SlashCommands.commandLine("status", Map.of()));
        assertEquals(Optional.of("/stop"), SlashCommands.commandLine("stop", Map.of()));
        assertEquals(Optional.of("/new"), SlashCommands.commandLine("new", Map.of()));
        assertEquals(Optional.empty(), SlashCommands.commandLine("weather", Map.of()));
    }

    @Test
    void settingsAndStatusAreAnsweredPrivately_stopAndNewInTheChannel() {
        assertTrue(SlashCommands.ephemeral("queue"));
        assertTrue(SlashCommands.ephemeral("status"));
        assertFalse(SlashCommands.ephemeral("stop"));
        assertFalse(SlashCommands.ephemeral("new"));
    }

    @Test
    void theBotsOwnMention_isStripped_othersAreKept() {
        assertEquals("/queue collect", InboundConverter.withoutMention("<@1000> /queue collect", "1000"));
        assertEquals("hi <@2000> and you", InboundConverter.withoutMention("hi <@!1000> <@2000> and you<@1000>", "1000"));
    }
}
