package dev.laneway.config;

import static dev.laneway.config.Configs.parse;
import static dev.laneway.config.Configs.problems;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.agent.settings.AttachmentSettings;
import dev.laneway.core.agent.settings.OpenAiSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code attachments:} and an openai agent's {@code vision} and {@code images} (docs/configuration.md §16, §7). */
class AttachmentsConfigTest {

    @Test
    void theDefaults_fetchWithoutTranscription_andAgentsWithoutVision() throws Exception {
        LanewayConfig config = parse("""
                agents:
                  list:
                    assistant: { provider: openai, model: m }
                """);
        assertEquals(AttachmentSettings.DEFAULTS, config.attachments());
        OpenAiSettings agent = (OpenAiSettings) config.agents().list().get("assistant");
        assertFalse(agent.vision());
        assertFalse(agent.imageUrls());
    }

    @Test
    void everyKeyIsRead_theKeyNeverPrinted() throws Exception {
        LanewayConfig config = parse("""
                attachments:
                  maxFileBytes: 1000
                  maxMessageBytes: 3000
                  fetchTimeoutMs: 5s
                  inlineTextChars: 50
                  transcription: { baseUrl: "http://127.0.0.1:9000/v1", model: whisper-1, apiKey: "${KEY}", timeoutMs: 20s }
                agents:
                  list:
                    assistant: { provider: openai, model: m, vision: true, images: url }
                """, Map.of("KEY", "sk-whisper"));
        assertEquals(new AttachmentSettings(1000, 3000, Duration.ofSeconds(5), 50,
                new AttachmentSettings.Transcription("http://127.0.0.1:9000/v1", "whisper-1", "sk-whisper",
                        Duration.ofSeconds(20))), config.attachments());
        assertEquals("http://127.0.0.1:9000/v1/audio/transcriptions", config.attachments().transcription().endpoint());
        OpenAiSettings agent = (OpenAiSettings) config.agents().list().get("assistant");
        assertTrue(agent.vision());
        assertTrue(agent.imageUrls());
        String printed = ConfigPrinter.effectiveYaml(config);
        assertTrue(printed.contains("inlineTextChars: 50"), printed);
        assertTrue(printed.contains("images: url"), printed);
        assertFalse(printed.contains("sk-whisper"), printed);
    }

    @Test
    void badValues_areReportedAtTheirKeys() {
        List<String> found = problems("""
                attachments:
                  maxFileBytes: 1000
                  maxMessageBytes: 10
                  transcription: { baseUrl: ftp://x }
                agents:
                  list:
                    assistant: { provider: openai, model: m, images: link }
                """).stream().map(p -> p.path() + ": " + p.message()).toList();
        assertTrue(found.contains("attachments.maxMessageBytes: must be at least maxFileBytes (1000), got 10"), found.toString());
        assertTrue(found.stream().anyMatch(p -> p.startsWith("attachments.transcription.baseUrl: required")), found.toString());
        assertTrue(found.contains("attachments.transcription.model: required, e.g. model: whisper-1"), found.toString());
        assertTrue(found.contains("agents.list.assistant.images: must be data-url or url, got \"link\""), found.toString());
    }
}
