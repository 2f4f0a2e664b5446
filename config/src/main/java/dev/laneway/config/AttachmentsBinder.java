package dev.laneway.config;

import dev.laneway.core.agent.settings.AttachmentSettings;
import java.time.Duration;
import java.util.List;

/** {@code attachments:} (docs/configuration.md §16): fetch limits, inlining and the transcription endpoint. */
final class AttachmentsBinder {

    private static final int MAX = Integer.MAX_VALUE;

    private AttachmentsBinder() {
    }

    static AttachmentSettings bind(Section section) {
        AttachmentSettings d = AttachmentSettings.DEFAULTS;
        int file = section.integer("maxFileBytes", (int) d.maxFileBytes(), 1, MAX);
        int message = section.integer("maxMessageBytes", (int) d.maxMessageBytes(), 1, MAX);
        if (message < file) {
            section.problem("maxMessageBytes", "must be at least maxFileBytes (" + file + "), got " + message);
            message = file;
        }
        Duration timeout = section.duration("fetchTimeoutMs", d.fetchTimeout());
        if (!timeout.isPositive()) {
            section.problem("fetchTimeoutMs", "must be a duration > 0");
            timeout = d.fetchTimeout();
        }
        int inline = section.integer("inlineTextChars", d.inlineTextChars(), 0, MAX);
        AttachmentSettings.Transcription transcription = null;
        if (section.has("transcription")) {
            Section t = section.section(ConfigKeys.TRANSCRIPTION);
            String baseUrl = t.string("baseUrl", null);
            String model = t.string("model", null);
            String apiKey = t.string("apiKey", ""); // read (and checked) whatever else is wrong
            Duration transcriptionTimeout = t.duration("timeoutMs", AttachmentSettings.DEFAULT_TRANSCRIPTION_TIMEOUT);
            boolean ok = true;
            if (baseUrl == null || !(baseUrl.startsWith("http://") || baseUrl.startsWith("https://"))) {
                t.problem("baseUrl", "required: an http or https URL like https://api.openai.com/v1 (requests go to "
                        + "<baseUrl>/audio/transcriptions)");
                ok = false;
            }
            if (model == null || model.isBlank()) {
                t.problem("model", "required, e.g. model: whisper-1");
                ok = false;
            }
            if (!transcriptionTimeout.isPositive()) {
                t.problem("timeoutMs", "must be a duration > 0");
                ok = false;
            }
            if (ok) {
                transcription = new AttachmentSettings.Transcription(baseUrl, model, apiKey, transcriptionTimeout);
            }
        }
        return new AttachmentSettings(file, message, timeout, inline, transcription);
    }
}
