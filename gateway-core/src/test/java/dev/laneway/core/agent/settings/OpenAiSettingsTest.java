package dev.laneway.core.agent.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpenAiSettingsTest {

    @Test
    void defaults_streamWithTwoRetriesFortyHistoryMessagesAndNoTools() {
        OpenAiSettings s = OpenAiSettings.defaults("assistant", "https://api.openai.com/v1", "gpt-4o-mini");

        assertTrue(s.stream());
        assertEquals(2, s.maxRetries());
        assertEquals(40, s.maxHistoryMessages());
        assertEquals(Duration.ofSeconds(120), s.timeout());
        assertEquals(List.of(), s.tools());
        assertEquals("", s.apiKey());
    }

    @Test
    void chatCompletionsUri_appendsThePath_withOrWithoutTrailingSlash() {
        assertEquals(URI.create("http://localhost:11434/v1/chat/completions"),
                OpenAiSettings.defaults("a", "http://localhost:11434/v1", "m").chatCompletionsUri());
        assertEquals(URI.create("http://localhost:11434/v1/chat/completions"),
                OpenAiSettings.defaults("a", "http://localhost:11434/v1/", "m").chatCompletionsUri());
    }

    @Test
    void badBaseUrl_isRejectedNamingTheSettingAndTheValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> OpenAiSettings.defaults("assistant", "ftp://example.com", "m"));
        assertEquals("agents.list.assistant.baseUrl: must be an absolute http or https URL without ?query or"
                + " #fragment (like https://api.openai.com/v1), got 'ftp://example.com'", e.getMessage());
        for (String bad : new String[] {"not a url", "http://h/v1?key=x", "http://h/v1#top", "http://h:99999/v1",
                "http:///v1", "", "/v1"}) {
            assertThrows(IllegalArgumentException.class, () -> OpenAiSettings.defaults("a", bad, "m"), bad);
        }
        assertThrows(IllegalArgumentException.class, () -> OpenAiSettings.defaults("a", null, "m"));
    }

    @Test
    void missingModel_isRejectedNamingTheSetting() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> OpenAiSettings.defaults("assistant", "http://localhost/v1", " "));
        assertTrue(e.getMessage().startsWith("agents.list.assistant.model: must not be empty"), e.getMessage());
    }

    @Test
    void outOfRangeNumbers_areRejected() {
        OpenAiSettings s = OpenAiSettings.defaults("a", "http://localhost/v1", "m");
        assertThrows(IllegalArgumentException.class, () -> new OpenAiSettings("a", s.baseUrl(), "", "m", "", true,
                Duration.ZERO, 40, null, null, 2, List.of()));
        assertThrows(IllegalArgumentException.class, () -> s.withMaxHistoryMessages(-1));
        assertThrows(IllegalArgumentException.class, () -> new OpenAiSettings("a", s.baseUrl(), "", "m", "", true,
                s.timeout(), 40, 3.5, null, 2, List.of()));
        assertThrows(IllegalArgumentException.class, () -> new OpenAiSettings("a", s.baseUrl(), "", "m", "", true,
                s.timeout(), 40, null, 0, 2, List.of()));
        assertThrows(IllegalArgumentException.class, () -> new OpenAiSettings("a", s.baseUrl(), "", "m", "", true,
                s.timeout(), 40, null, null, -1, List.of()));
        assertThrows(IllegalArgumentException.class, () -> s.withMaxRetries(OpenAiSettings.MAX_RETRIES + 1));
        assertThrows(IllegalArgumentException.class,
                () -> s.withMaxHistoryMessages(OpenAiSettings.MAX_HISTORY_MESSAGES + 1));
        assertThrows(IllegalArgumentException.class, () -> new OpenAiSettings("a", s.baseUrl(), "", "m", "", true,
                s.timeout(), 40, Double.NaN, null, 2, List.of()));
    }

    @Test
    void everyBrokenRule_isReportedAtOnce_eachWithItsKeyAndValue() {
        InvalidAgentSettingsException e = assertThrows(InvalidAgentSettingsException.class,
                () -> new OpenAiSettings("bot", "http://h/v1?x=1", "", "m", "", true, Duration.ZERO, 40, 2.5, 0, 50,
                        List.of("current_time", "curent_time")));

        assertEquals("bot", e.agent());
        assertEquals(List.of("baseUrl", "timeoutMs", "temperature", "maxTokens", "maxRetries", "tools[1]"),
                e.violations().stream().map(SettingViolation::key).toList());
        assertEquals(OpenAiSettings.KNOWN_TOOLS, e.violations().getLast().choices());
        assertTrue(e.getMessage().contains("agents.list.bot.maxRetries: must be an integer between 0 and 10, got '50'"),
                e.getMessage());
    }

    @Test
    void repeatedTools_areKeptOnce() {
        assertEquals(List.of("current_time"), OpenAiSettings.defaults("a", "http://h/v1", "m")
                .withTools(List.of("current_time", "current_time")).tools());
    }

    @Test
    void blankName_isAViolationOfTheEntryItself() {
        InvalidAgentSettingsException e = assertThrows(InvalidAgentSettingsException.class,
                () -> OpenAiSettings.defaults(" ", "http://h/v1", "m"));
        assertEquals("", e.violations().getFirst().key());
    }

    @Test
    void toString_neverShowsTheApiKey() {
        String text = OpenAiSettings.defaults("a", "http://localhost/v1", "m").withApiKey("sk-very-secret").toString();

        assertFalse(text.contains("sk-very-secret"), text);
        assertTrue(text.contains("apiKey=***"), text);
    }
}
