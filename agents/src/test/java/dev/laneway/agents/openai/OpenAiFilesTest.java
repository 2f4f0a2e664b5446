package dev.laneway.agents.openai;

import static dev.laneway.agents.openai.Responses.streamedText;
import static dev.laneway.agents.testing.Runs.outcome;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.laneway.agents.files.FileNotices;
import dev.laneway.agents.files.FileReading;
import dev.laneway.agents.files.Transcriber;
import dev.laneway.agents.testing.Runs;
import dev.laneway.core.Attachment;
import dev.laneway.core.agent.AttachmentLoader;
import dev.laneway.core.agent.LoadedFile;
import dev.laneway.core.agent.MessageFiles;
import dev.laneway.core.agent.RunOutcome;
import dev.laneway.core.agent.RunRequest;
import dev.laneway.core.agent.SteerMessage;
import dev.laneway.core.agent.settings.AttachmentSettings;
import dev.laneway.core.agent.settings.OpenAiSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the model receives for attachments (docs/behaviour.md §15.2), recorded by the fake
 * OpenAI-compatible server: image parts for a vision model, a placeholder and one notice without vision,
 * text files inlined and cut, voice notes transcribed through the fake's {@code /audio/transcriptions}
 * (and a notice when it fails or none is configured), binaries and failed fetches named with a notice
 * while the rest of the message is still answered. The files come from a loader that hands out fixed
 * bytes (the fetch itself is {@code ChannelFileLoaderTest}'s).
 */
class OpenAiFilesTest {

    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3, 4};
    private static final Attachment IMAGE = new Attachment("photo", "plot.png", "image/png", PNG.length, "img");
    private static final Attachment NOTES = new Attachment("document", "notes.md", "text/markdown", 26, "notes");
    private static final Attachment VOICE = new Attachment("voice", "voice.ogg", "audio/ogg", 6, "voice");
    private static final Attachment PDF = new Attachment("document", "report.pdf", "application/pdf", 8, "pdf");
    private static final Attachment GONE = new Attachment("document", "gone.txt", "text/plain", 3, "gone");

    private final Harness h = new Harness();
    private final Map<String, LoadedFile> files = new HashMap<>();
    private final AttachmentLoader loader = message -> message.attachments().stream()
            .map(a -> files.getOrDefault(a.ref(), LoadedFile.failed(a, "the platform refused the download (HTTP 403)")))
            .toList();

    OpenAiFilesTest() {
        files.put("img", new LoadedFile(IMAGE, PNG, "image/png", null, "https://cdn.example/plot.png"));
        files.put("notes", new LoadedFile(NOTES, "# Notes\nabcdefghijklmnopq".getBytes(StandardCharsets.UTF_8),
                "text/markdown", null, null));
        files.put("voice", new LoadedFile(VOICE, "OggS..".getBytes(StandardCharsets.ISO_8859_1), "audio/ogg", null, null));
        files.put("pdf", new LoadedFile(PDF, "%PDF-1.7".getBytes(StandardCharsets.US_ASCII), "application/pdf", null, null));
    }

    @AfterEach
    void close() {
        h.close();
    }

    private OpenAiAgent agent(OpenAiSettings settings, AttachmentSettings attachments) {
        Transcriber transcriber = attachments.transcription() == null ? null : Transcriber.create(attachments.transcription());
        return h.agent(settings).readingFiles(new FileReading(loader, attachments, transcriber));
    }

    private static RunRequest request(String session, String text, List<MessageFiles> messages) {
        StringBuilder prompt = new StringBuilder(text);
        messages.forEach(m -> m.attachments().forEach(a -> prompt.append(prompt.isEmpty() ? "" : "\n").append(a.marker())));
        RunRequest plain = Runs.request(session, prompt.toString());
        return new RunRequest(plain.runId(), plain.session(), plain.prompt(), plain.route(), plain.group(),
                plain.senderId(), plain.attempt(), plain.claim(), messages);
    }

    private static MessageFiles of(Attachment... attachments) {
        return new MessageFiles("console", List.of(attachments));
    }

    private JsonNode userContent(int request) {
        JsonNode messages = h.fake.request(request).body().get("messages");
        return messages.get(messages.size() - 1).get("content");
    }

    @Test
    void anImage_reachesAVisionModel_asAnImagePart_rightAfterItsMarker() {
        h.fake.then(streamedText("a rising line"));
        RunOutcome outcome = outcome(agent(h.settings().withVision(true, false), AttachmentSettings.DEFAULTS)
                .start(request("s1", "what is this?", List.of(of(IMAGE))), h.events));

        assertEquals(RunOutcome.Completed.clean(), outcome);
        JsonNode content = userContent(0);
        assertEquals(2, content.size());
        assertEquals("text", content.get(0).get("type").asText());
        assertEquals("what is this?\n[file: plot.png (image/png, 12 B)]", content.get(0).get("text").asText());
        assertEquals("image_url", content.get(1).get("type").asText());
        assertEquals("data:image/png;base64," + Base64.getEncoder().encodeToString(PNG),
                content.get(1).get("image_url").get("url").asText());
        assertEquals(List.of("a rising line"), h.events.replies(), "no notice");
    }

    @Test
    void imagesUrl_handsTheModelTheShareableUrl() {
        h.fake.then(streamedText("ok"));
        outcome(agent(h.settings().withVision(true, true), AttachmentSettings.DEFAULTS)
                .start(request("s1", "", List.of(of(IMAGE))), h.events));

        assertEquals("https://cdn.example/plot.png", userContent(0).get(1).get("image_url").get("url").asText());
    }

    @Test
    void anImage_toAModelWithoutVision_isAPlaceholder_andTheUserIsToldOncePerSession() {
        OpenAiAgent agent = agent(h.settings(), AttachmentSettings.DEFAULTS);
        h.fake.then(streamedText("one")).then(streamedText("two"));
        outcome(agent.start(request("s1", "look", List.of(of(IMAGE))), h.events));
        outcome(agent.start(request("s1", "again", List.of(of(IMAGE))), h.events));

        assertEquals("look\n[file: plot.png (image/png, 12 B)]\n(an image; this model cannot see images)",
                userContent(0).asText(), "a plain string: a server without vision takes it");
        assertEquals(List.of(FileNotices.NO_VISION, "one", "two"), h.events.replies());
    }

    @Test
    void aTextFile_isInlined_andCutWithANote() {
        h.fake.then(streamedText("short")).then(streamedText("cut"));
        outcome(agent(h.settings(), AttachmentSettings.DEFAULTS).start(request("s1", "read", List.of(of(NOTES))), h.events));
        outcome(agent(h.settings(), AttachmentSettings.DEFAULTS.withInlineTextChars(10))
                .start(request("s1", "read", List.of(of(NOTES))), h.events));

        assertEquals("read\n[file: notes.md (text/markdown, 26 B)]\n# Notes\nabcdefghijklmnopq", userContent(0).asText());
        assertEquals("read\n[file: notes.md (text/markdown, 26 B)]\n# Notes\nab\n"
                + "[cut: the file has 25 characters; only the first 10 are shown]", userContent(1).asText());
        assertEquals(List.of("short", "cut"), h.events.replies());
    }

    @Test
    void aVoiceNote_isTranscribed_throughTheConfiguredEndpoint() {
        h.fake.transcript(200, "  call me back  ").then(streamedText("will do"));
        AttachmentSettings settings = AttachmentSettings.DEFAULTS.withTranscription(
                new AttachmentSettings.Transcription(h.fake.baseUrl(), "whisper-1", "k", Duration.ofSeconds(5)));
        outcome(agent(h.settings(), settings).start(request("s1", "", List.of(of(VOICE))), h.events));

        assertEquals("[file: voice.ogg (audio/ogg, 6 B)]\nTranscript: call me back", userContent(0).asText());
        String multipart = h.fake.transcriptionBodies.get(0);
        assertTrue(multipart.contains("whisper-1") && multipart.contains("filename=\"voice.ogg\"")
                && multipart.contains("OggS.."), "the model name and the audio went to the endpoint");
        assertEquals(List.of("will do"), h.events.replies());
    }

    @Test
    void aFailingTranscriptionEndpoint_orNone_isOneNotice_andTheRestIsStillAnswered() {
        h.fake.transcript(500, "").then(streamedText("answered")).then(streamedText("again"));
        AttachmentSettings settings = AttachmentSettings.DEFAULTS.withTranscription(
                new AttachmentSettings.Transcription(h.fake.baseUrl(), "whisper-1", "", Duration.ofSeconds(5)));
        outcome(agent(h.settings(), settings).start(request("s1", "and this", List.of(of(VOICE))), h.events));
        outcome(agent(h.settings(), AttachmentSettings.DEFAULTS).start(request("s1", "", List.of(of(VOICE))), h.events));

        assertEquals("and this\n[file: voice.ogg (audio/ogg, 6 B)]\n(a voice note or audio; the transcription failed)",
                userContent(0).asText());
        assertEquals(List.of(
                FileNotices.notTranscribed("voice.ogg", "the transcription service answered HTTP 500"), "answered",
                FileNotices.cannotHear("voice.ogg"), "again"), h.events.replies());
    }

    @Test
    void aPdf_andAFileThatCouldNotBeFetched_areNamed_withOneNoticeLineEach_andTheTextIsAnswered() {
        h.fake.then(streamedText("done"));
        outcome(agent(h.settings(), AttachmentSettings.DEFAULTS)
                .start(request("s1", "summarise", List.of(of(PDF, GONE, NOTES))), h.events));

        assertEquals("""
                summarise
                [file: report.pdf (application/pdf, 8 B)]
                (this kind of file cannot be read here)
                [file: gone.txt (text/plain, 3 B)]
                (it could not be opened: the platform refused the download (HTTP 403))
                [file: notes.md (text/markdown, 26 B)]
                # Notes
                abcdefghijklmnopq""", userContent(0).asText());
        assertEquals(List.of(FileNotices.cannotRead("report.pdf", "application/pdf") + "\n"
                + FileNotices.notOpened("gone.txt", "the platform refused the download (HTTP 403)"), "done"),
                h.events.replies());
    }

    @Test
    void aCollectBatch_placesEachMessagesFilesUnderItsOwnBlock_andASteerCarriesItsImage() {
        h.fake.then(streamedText("both"));
        String prompt = "[Queued messages while agent was busy]\n\n---\nQueued #1 (from Ann)\nmine\n" + NOTES.marker()
                + "\n\n---\nQueued #2 (from Bob)\n" + IMAGE.marker();
        RunRequest plain = Runs.request("s1", prompt);
        RunRequest batch = new RunRequest(plain.runId(), plain.session(), prompt, plain.route(), true, "bob", 1,
                plain.claim(), List.of(of(NOTES), of(IMAGE)));
        outcome(agent(h.settings().withVision(true, false), AttachmentSettings.DEFAULTS).start(batch, h.events));

        JsonNode content = userContent(0);
        assertEquals("[Queued messages while agent was busy]\n\n---\nQueued #1 (from Ann)\nmine\n" + NOTES.marker()
                + "\n# Notes\nabcdefghijklmnopq\n\n---\nQueued #2 (from Bob)\n" + IMAGE.marker(),
                content.get(0).get("text").asText());
        assertEquals("image_url", content.get(1).get("type").asText());

        java.util.concurrent.CompletableFuture<Void> resume = new java.util.concurrent.CompletableFuture<>();
        h.fake.then(Responses.sse().data(Responses.text("Hel")).await(resume).data(Responses.text("lo"))
                        .data(Responses.finish("stop")).done())
                .then(streamedText("second"));
        OpenAiAgent agent = agent(h.settings().withVision(true, false), AttachmentSettings.DEFAULTS);
        var run = agent.start(request("s2", "start", List.of()), h.events);
        h.events.awaitDeltas(2); // the batch's answer was the first
        assertEquals(dev.laneway.core.agent.SteerResult.ACCEPTED,
                run.steer(List.of(new SteerMessage(7, "and\n" + IMAGE.marker(), "Ann", of(IMAGE)))));
        resume.complete(null);
        outcome(run);
        JsonNode steered = userContent(2);
        assertEquals("and\n" + IMAGE.marker(), steered.get(0).get("text").asText());
        assertEquals("image_url", steered.get(1).get("type").asText());
    }
}
