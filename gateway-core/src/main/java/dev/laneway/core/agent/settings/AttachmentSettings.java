package dev.laneway.core.agent.settings;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code attachments:} section (docs/configuration.md §16): how files are fetched and what the
 * agents make of them (docs/behaviour.md §15). Validated at construction.
 *
 * @param maxFileBytes    the largest file fetched
 * @param maxMessageBytes the most bytes fetched for one message's files together
 * @param fetchTimeout    the longest one file's download (locate, headers and body) may take
 * @param inlineTextChars how many characters of a text file the model gets; the rest is cut with a note
 * @param transcription   the OpenAI-compatible {@code /audio/transcriptions} endpoint for voice notes and
 *                        audio, or null when none is configured
 */
public record AttachmentSettings(long maxFileBytes, long maxMessageBytes, Duration fetchTimeout, int inlineTextChars,
                                 Transcription transcription) {

    public static final long DEFAULT_MAX_FILE_BYTES = 20L << 20;
    public static final long DEFAULT_MAX_MESSAGE_BYTES = 50L << 20;
    public static final Duration DEFAULT_FETCH_TIMEOUT = Duration.ofSeconds(30);
    public static final int DEFAULT_INLINE_TEXT_CHARS = 20_000;
    public static final Duration DEFAULT_TRANSCRIPTION_TIMEOUT = Duration.ofSeconds(60);
    public static final AttachmentSettings DEFAULTS = new AttachmentSettings(DEFAULT_MAX_FILE_BYTES,
            DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_FETCH_TIMEOUT, DEFAULT_INLINE_TEXT_CHARS, null);

    public AttachmentSettings {
        List<String> problems = new ArrayList<>();
        if (maxFileBytes < 1) {
            problems.add("attachments.maxFileBytes must be at least 1, got " + maxFileBytes);
        }
        if (maxMessageBytes < maxFileBytes) {
            problems.add("attachments.maxMessageBytes must be at least maxFileBytes (" + maxFileBytes + "), got "
                    + maxMessageBytes);
        }
        if (fetchTimeout == null || !fetchTimeout.isPositive()) {
            problems.add("attachments.fetchTimeoutMs must be a duration > 0");
        }
        if (inlineTextChars < 0) {
            problems.add("attachments.inlineTextChars must be 0 or more, got " + inlineTextChars);
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
    }

    public AttachmentSettings withTranscription(Transcription value) {
        return new AttachmentSettings(maxFileBytes, maxMessageBytes, fetchTimeout, inlineTextChars, value);
    }

    public AttachmentSettings withLimits(long file, long message) {
        return new AttachmentSettings(file, message, fetchTimeout, inlineTextChars, transcription);
    }

    public AttachmentSettings withFetchTimeout(Duration value) {
        return new AttachmentSettings(maxFileBytes, maxMessageBytes, value, inlineTextChars, transcription);
    }

    public AttachmentSettings withInlineTextChars(int value) {
        return new AttachmentSettings(maxFileBytes, maxMessageBytes, fetchTimeout, value, transcription);
    }

    /**
     * An OpenAI-compatible transcription endpoint (OpenAI, or a local Whisper server).
     *
     * @param baseUrl like {@code https://api.openai.com/v1}; requests go to {@code <baseUrl>/audio/transcriptions}
     * @param model   the model id ({@code whisper-1})
     * @param apiKey  sent as {@code Authorization: Bearer} when not empty; never logged
     * @param timeout the longest one transcription may take
     */
    public record Transcription(String baseUrl, String model, String apiKey, Duration timeout) {

        public Transcription {
            if (baseUrl == null || !(baseUrl.startsWith("http://") || baseUrl.startsWith("https://"))) {
                throw new IllegalArgumentException("attachments.transcription.baseUrl must be an http or https URL");
            }
            if (model == null || model.isBlank()) {
                throw new IllegalArgumentException("attachments.transcription.model must not be empty (e.g. whisper-1)");
            }
            apiKey = apiKey == null ? "" : apiKey.strip();
            timeout = timeout == null ? DEFAULT_TRANSCRIPTION_TIMEOUT : timeout;
        }

        /** {@code <baseUrl>/audio/transcriptions}, with no doubled slash. */
        public String endpoint() {
            return baseUrl.replaceAll("/+$", "") + "/audio/transcriptions";
        }

        @Override
        public String toString() {
            return "Transcription[baseUrl=" + dev.laneway.core.UrlRedactor.redact(baseUrl) + ", model=" + model
                    + ", apiKey=" + (apiKey.isEmpty() ? "" : "***") + ", timeout=" + timeout + "]";
        }
    }
}
