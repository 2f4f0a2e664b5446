package dev.laneway.agents.files;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.laneway.core.agent.settings.AttachmentSettings.Transcription;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Turns a voice note or an audio file into text through an OpenAI-compatible
 * {@code POST <baseUrl>/audio/transcriptions} (multipart: {@code file}, {@code model}; the answer's
 * {@code text}), as OpenAI and local Whisper servers serve it (docs/behaviour.md §15.2). A failure is a
 * {@link Failed} whose reason a user can read; the key never appears in it. Thread-safe.
 */
public final class Transcriber {

    private final Transcription settings;
    private final HttpClient http;
    private final ObjectMapper mapper = new ObjectMapper();

    public Transcriber(Transcription settings, HttpClient http) {
        this.settings = settings;
        this.http = http;
    }

    public static Transcriber create(Transcription settings) {
        return new Transcriber(settings, HttpClient.newBuilder().connectTimeout(settings.timeout()).build());
    }

    /** The transcript of {@code audio}, stripped. */
    public String transcribe(String fileName, String mediaType, byte[] audio) throws Failed {
        String boundary = "laneway-" + UUID.randomUUID();
        ByteArrayOutputStream body = new ByteArrayOutputStream(audio.length + 512);
        field(body, boundary, "model", settings.model());
        body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\""
                + fileName.replace("\"", "'").replace("\r", " ").replace("\n", " ") + "\"\r\nContent-Type: "
                + (mediaType == null ? "application/octet-stream" : mediaType) + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
        body.writeBytes(audio);
        body.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(settings.endpoint()))
                .timeout(settings.timeout())
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()));
        if (!settings.apiKey().isEmpty()) {
            request.header("Authorization", "Bearer " + settings.apiKey());
        }
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException e) {
            throw new Failed("the transcription service did not answer within " + settings.timeout().toSeconds() + " s");
        } catch (ConnectException e) {
            throw new Failed("the transcription service could not be reached");
        } catch (IOException e) {
            throw new Failed("the transcription service broke off");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Failed("the transcription was interrupted");
        }
        if (response.statusCode() / 100 != 2) {
            throw new Failed("the transcription service answered HTTP " + response.statusCode());
        }
        try {
            JsonNode text = mapper.readTree(response.body()).get("text");
            if (text == null || !text.isTextual()) {
                throw new Failed("the transcription service's answer had no text");
            }
            return text.asText().strip();
        } catch (IOException e) {
            throw new Failed("the transcription service's answer was unreadable");
        }
    }

    private static void field(ByteArrayOutputStream body, String boundary, String name, String value) {
        body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n"
                + value + "\r\n").getBytes(StandardCharsets.UTF_8));
    }

    /** Why a transcription failed, as a user reads it. */
    public static final class Failed extends Exception {
        Failed(String reason) {
            super(reason, null, false, false);
        }
    }
}
