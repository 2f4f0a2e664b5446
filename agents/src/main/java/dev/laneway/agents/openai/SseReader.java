package dev.laneway.agents.openai;

import java.io.BufferedReader;
import java.io.IOException;

/**
 * Reads server-sent events from a text stream and returns the data of each event: {@code data:}
 * lines joined by newlines, comments and other fields ignored. Not thread-safe.
 */
final class SseReader {

    private final BufferedReader reader;

    SseReader(BufferedReader reader) {
        this.reader = reader;
    }

    /** The data of the next event, or null at the end of the stream. */
    String next() throws IOException {
        StringBuilder data = null;
        String line;
        while ((line = reader.readLine()) != null) {
            if (line.isEmpty()) {
                if (data != null) {
                    return data.toString();
                }
                continue;
            }
            if (line.startsWith(":")) {
                continue;
            }
            int colon = line.indexOf(':');
            String field = colon < 0 ? line : line.substring(0, colon);
            if (!field.equals("data")) {
                continue;
            }
            String value = colon < 0 ? "" : line.substring(colon + 1);
            if (value.startsWith(" ")) {
                value = value.substring(1);
            }
            if (data == null) {
                data = new StringBuilder(value);
            } else {
                data.append('\n').append(value);
            }
        }
        return data == null ? null : data.toString();
    }
}
