package dev.laneway.agents.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.laneway.agents.files.FileReading;
import java.util.List;

/**
 * A user message's {@code content} with its attachments placed (docs/behaviour.md §15.2): each
 * attachment's piece goes right after its marker in the text, so a collect batch's files stay under
 * their own {@code Queued #N} block. Without an image the content is one string (servers without
 * vision take it); with one it is an array of {@code text} and {@code image_url} parts.
 */
final class ContentParts {

    private ContentParts() {
    }

    static JsonNode of(ObjectMapper mapper, String text, List<FileReading.Piece> pieces) {
        if (pieces.isEmpty()) {
            return mapper.getNodeFactory().textNode(text);
        }
        ArrayNode parts = mapper.createArrayNode();
        StringBuilder pending = new StringBuilder();
        int cursor = 0;
        for (FileReading.Piece piece : pieces) {
            String marker = piece.attachment().marker();
            int at = text.indexOf(marker, cursor);
            if (at < 0) {
                // not in the text (cannot happen for the engine's prompts): the piece goes at the end
                pending.append(text, cursor, text.length()).append(text.isEmpty() ? "" : "\n").append(marker);
                cursor = text.length();
            } else {
                pending.append(text, cursor, at + marker.length());
                cursor = at + marker.length();
            }
            if (!piece.text().isEmpty()) {
                pending.append('\n').append(piece.text());
            }
            if (piece.imageUrl() != null) {
                flush(parts, pending);
                parts.addObject().put("type", "image_url").putObject("image_url").put("url", piece.imageUrl());
            }
        }
        pending.append(text, cursor, text.length());
        if (parts.isEmpty()) {
            return mapper.getNodeFactory().textNode(pending.toString());
        }
        flush(parts, pending);
        return parts;
    }

    private static void flush(ArrayNode parts, StringBuilder pending) {
        if (!pending.isEmpty()) {
            parts.addObject().put("type", "text").put("text", pending.toString());
            pending.setLength(0);
        }
    }
}
