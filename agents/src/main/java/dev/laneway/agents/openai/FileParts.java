package dev.laneway.agents.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.laneway.agents.files.FileReading;
import dev.laneway.core.SessionKey;
import dev.laneway.core.agent.MessageFiles;
import dev.laneway.core.agent.RunEvents;
import dev.laneway.core.agent.settings.OpenAiSettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One agent's way from a message's attachments to its user content (docs/behaviour.md §15.2): fetch
 * and convert them ({@link FileReading}), tell the user in one reply what did not reach the model, and
 * place the rest in the text ({@link ContentParts}). The "this model cannot see images" notice goes
 * once per session.
 *
 * <p>Concurrency: runs call it on their own threads; {@code lock} guards {@code toldNoVision} (the
 * sessions told, the newest 10,000); the fetches run outside it.
 */
final class FileParts {

    private static final int TOLD_MAX = 10_000;

    private final FileReading reading;
    private final OpenAiSettings settings;
    private final ObjectMapper mapper;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, Boolean> toldNoVision = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > TOLD_MAX;
        }
    };

    FileParts(FileReading reading, OpenAiSettings settings, ObjectMapper mapper) {
        this.reading = reading;
        this.settings = settings;
        this.mapper = mapper;
    }

    /** {@code text} as the model's content, its files placed after their markers; notices go to {@code events}. */
    JsonNode content(String text, List<MessageFiles> files, SessionKey session, RunEvents events) {
        if (files.isEmpty()) {
            return mapper.getNodeFactory().textNode(text);
        }
        FileReading.Prepared prepared = reading.prepare(files, settings.vision(), settings.imageUrls());
        List<String> notices = new ArrayList<>(prepared.notices());
        if (prepared.noVisionNotice() != null && firstNoVision(session)) {
            notices.add(prepared.noVisionNotice());
        }
        if (!notices.isEmpty()) {
            events.reply(String.join("\n", notices));
        }
        return ContentParts.of(mapper, text, prepared.pieces());
    }

    private boolean firstNoVision(SessionKey session) {
        lock.lock();
        try {
            return toldNoVision.put(session.value(), Boolean.TRUE) == null;
        } finally {
            lock.unlock();
        }
    }
}
