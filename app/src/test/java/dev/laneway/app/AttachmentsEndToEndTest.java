package dev.laneway.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.app.FakeTelegramServer.Person;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files from Telegram reach the model through the real app (docs/behaviour.md §15): the real SDK
 * against a fake Bot API that serves the files, the gateway, the app's wiring of the attachment
 * loader, and an {@code openai} agent with vision against a fake model server that records what it
 * received. A photo without caption arrives as an image part, a captioned text file inlined, and a
 * voice note without a transcription endpoint gets the "cannot hear" notice while the model still
 * answers.
 */
class AttachmentsEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Person ANN = new Person(101, "Ann");
    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 'I', 'H', 'D', 'R'};

    @TempDir
    Path dir;

    @Test
    void aPhotoATextFileAndAVoiceNote_fromTelegram_reachTheModel() throws Exception {
        try (FakeTelegramServer telegram = new FakeTelegramServer(); FakeModelServer model = new FakeModelServer()) {
            String yaml = """
                    gateway: { dataDir: "%s", http: { enabled: false } }
                    agents:
                      list:
                        assistant: { provider: openai, baseUrl: "%s", model: m, vision: true }
                    messages:
                      queue: { mode: followup, debounceMs: 0 }
                    channels:
                      telegram: { enabled: true, token: "%s", apiUrl: "%s" }
                    """.formatted(dir.resolve("data"), model.baseUrl(), FakeTelegramServer.TOKEN, telegram.url());
            try (InProcessApp app = new InProcessApp(yaml, Map.of()).start()) {
                telegram.awaitFirstPoll(WAIT);
                telegram.dmFile(ANN, "photo", "photo-1", null, null, PNG, null);
                telegram.awaitSent(1, sent -> true, WAIT);
                telegram.dmFile(ANN, "document", "doc-1", "notes.md", "text/markdown",
                        "# Plan\nship on friday".getBytes(StandardCharsets.UTF_8), "what does it say?");
                telegram.awaitSent(2, sent -> true, WAIT);
                telegram.dmFile(ANN, "voice", "voice-1", null, "audio/ogg",
                        "OggS-voice".getBytes(StandardCharsets.ISO_8859_1), null);
                List<FakeTelegramServer.Sent> sent = telegram.awaitSent(4, s -> true, WAIT);

                List<String> requests = model.requests();
                assertEquals(3, requests.size(), "one model call per message: " + requests);
                String photo = requests.get(0);
                assertTrue(photo.contains("\"type\":\"image_url\""), photo);
                assertTrue(photo.contains("data:image/png;base64," + Base64.getEncoder().encodeToString(PNG)), photo);
                assertTrue(photo.contains("[file: photo.jpg (image/jpeg, 16 B)]"), photo);
                String document = requests.get(1);
                assertTrue(document.contains("what does it say?\\n[file: notes.md (text/markdown, 21 B)]\\n# Plan\\nship on friday"),
                        document);
                assertFalse(document.contains("image_url"), "without an image the content stays a string");
                assertTrue(requests.get(2).contains("(a voice note or audio; it could not be transcribed)"), requests.get(2));

                assertEquals("⚠️ I cannot hear voice notes or audio here, so voice.ogg did not reach the model. "
                        + "Please send text.", sent.get(2).text(), "the notice comes before the answer");
                assertTrue(sent.get(3).text().startsWith("model says: "), sent.toString());
            }
        }
    }
}
