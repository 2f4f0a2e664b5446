package dev.laneway.agents.openai;

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
        assertEquals("agents.list.assistant.baseUrl: must be an http(s) URL like https://api.openai.com/v1, "
                + "got 'ftp://example.com'", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> OpenAiSettings.defaults("a", "not a url", "m"));
        assertThrows(IllegalArgumentException.class, () -> OpenAiSettings.defaults("a", null, "m"));
    }

    @Test
    void missingModel_isRejectedNamingTheSetting() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> OpenAiSettings.defaults("assistant", "http://localhost/v1", " "));
        assertTrue(e.getMessage().startsWith("agents.list.assistant.model: must be set"), e.getMessage());
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
    }

    @Test
    void toString_neverShowsTheApiKey() {
        String text = OpenAiSettings.defaults("a", "http://localhost/v1", "m").withApiKey("sk-very-secret").toString();

        assertFalse(text.contains("sk-very-secret"), text);
        assertTrue(text.contains("apiKey=***"), text);
    }
}
