package dev.laneway.store.redis;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.laneway.core.Attachment;
import dev.laneway.core.DropPolicy;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueOverride;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.Route;
import dev.laneway.core.store.HistoryEntry;
import dev.laneway.core.store.JournalEntry;
import dev.laneway.core.store.LiveMessage;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The values the Redis store keeps, as JSON text and back, field for field (the same fields the SQLite
 * store keeps in columns): a journal entry (with its message key in {@code key}, which the settle
 * script reads), a history entry, a {@code /queue} override. {@code receivedAt} is kept as epoch
 * seconds plus nanoseconds (exact), {@code acceptedAt} as epoch millis, queue modes and drop policies
 * by their canonical id, durations in milliseconds; absent values are JSON nulls. Stateless and
 * thread-safe.
 */
final class RedisCodec {

    private static final ObjectMapper JSON = new ObjectMapper();

    private RedisCodec() {
    }

    static String entry(JournalEntry entry) {
        InboundMessage message = entry.message();
        QueueSettings settings = entry.settings();
        ObjectNode node = JSON.createObjectNode();
        node.put("seq", entry.seq());
        node.put("session", entry.session());
        node.put("key", entry.messageKey());
        node.put("channel", message.channel());
        node.put("account", message.account());
        node.put("chatId", message.chatId());
        node.put("threadId", message.threadId());
        node.put("senderId", message.senderId());
        node.put("senderName", message.senderName());
        node.put("text", message.text());
        node.put("effectiveText", entry.text());
        ArrayNode attachments = node.putArray("attachments");
        for (Attachment attachment : message.attachments()) {
            // the ref may be a signed URL: kept with its message until it ends, never logged (docs/behaviour.md §15.4)
            attachments.addObject().put("kind", attachment.kind()).put("name", attachment.name())
                    .put("mediaType", attachment.mediaType()).put("size", attachment.size()).put("ref", attachment.ref());
        }
        node.put("platformMessageId", message.platformMessageId());
        node.put("receivedAtSec", message.receivedAt().getEpochSecond());
        node.put("receivedAtNano", message.receivedAt().getNano());
        node.put("direct", message.direct());
        node.put("mentionsBot", message.mentionsBot());
        node.put("senderIsAdmin", message.senderIsAdmin());
        node.put("spaceId", message.spaceId());
        node.put("origin", message.origin().name().toLowerCase(Locale.ROOT));
        node.put("trusted", entry.trusted());
        node.put("mode", settings.mode().id());
        node.put("debounceMs", settings.debounce().toMillis());
        node.put("cap", settings.cap());
        node.put("drop", settings.drop().id());
        node.put("acceptedAt", entry.acceptedAt().toEpochMilli());
        return write(node);
    }

    static JournalEntry entry(String json, String where) {
        JsonNode node = read(json, where);
        List<Attachment> attachments = new ArrayList<>();
        for (JsonNode attachment : node.path("attachments")) {
            // entries written before attachments had a type, size and ref read as parts that cannot be fetched
            attachments.add(new Attachment(text(attachment, "kind", where), text(attachment, "name", where),
                    text(attachment, "mediaType", where), attachment.path("size").asLong(-1),
                    text(attachment, "ref", where)));
        }
        InboundMessage message = new InboundMessage(
                required(node, "channel", where),
                required(node, "account", where),
                required(node, "chatId", where),
                text(node, "threadId", where),
                required(node, "senderId", where),
                text(node, "senderName", where),
                text(node, "text", where),
                attachments,
                text(node, "platformMessageId", where),
                Instant.ofEpochSecond(number(node, "receivedAtSec", where), number(node, "receivedAtNano", where)),
                node.path("direct").asBoolean(),
                node.path("mentionsBot").asBoolean(),
                node.path("senderIsAdmin").asBoolean(),
                text(node, "spaceId", where),
                origin(required(node, "origin", where), where));
        QueueSettings settings = new QueueSettings(
                mode(required(node, "mode", where), where),
                Duration.ofMillis(number(node, "debounceMs", where)),
                (int) number(node, "cap", where),
                drop(required(node, "drop", where), where));
        return new JournalEntry(number(node, "seq", where), required(node, "session", where), message,
                required(node, "effectiveText", where), settings, node.path("trusted").asBoolean(),
                Instant.ofEpochMilli(number(node, "acceptedAt", where)));
    }

    /** A live message, with when it was recorded ({@code at}, epoch ms: the order of one entry's messages). */
    static String live(LiveMessage message, long atMillis) {
        Route route = message.route();
        return write(JSON.createObjectNode().put("seq", message.seq()).put("messageId", message.messageId())
                .put("channel", route.channel()).put("account", route.account()).put("chatId", route.chatId())
                .put("threadId", route.threadId()).put("text", message.text()).put("at", atMillis));
    }

    static LiveMessage live(String json, String where) {
        JsonNode node = read(json, where);
        return new LiveMessage(number(node, "seq", where), new Route(required(node, "channel", where),
                required(node, "account", where), required(node, "chatId", where), text(node, "threadId", where), null),
                required(node, "messageId", where), required(node, "text", where));
    }

    /** When a live message was recorded ({@link #live(LiveMessage, long)}). */
    static long liveAt(String json, String where) {
        return number(read(json, where), "at", where);
    }

    static String history(HistoryEntry entry) {
        return write(JSON.createObjectNode().put("role", entry.role()).put("content", entry.content()));
    }

    static HistoryEntry history(String json, String where) {
        JsonNode node = read(json, where);
        return new HistoryEntry(required(node, "role", where), required(node, "content", where));
    }

    static String override(QueueOverride override) {
        ObjectNode node = JSON.createObjectNode();
        node.put("mode", override.mode() == null ? null : override.mode().id());
        node.put("debounceMs", override.debounce() == null ? null : override.debounce().toMillis());
        node.put("cap", override.cap());
        node.put("drop", override.drop() == null ? null : override.drop().id());
        return write(node);
    }

    static QueueOverride override(String json, String where) {
        JsonNode node = read(json, where);
        String mode = text(node, "mode", where);
        String drop = text(node, "drop", where);
        return new QueueOverride(
                mode == null ? null : mode(mode, where),
                node.path("debounceMs").isNumber() ? Duration.ofMillis(node.get("debounceMs").asLong()) : null,
                node.path("cap").isNumber() ? node.get("cap").asInt() : null,
                drop == null ? null : drop(drop, where));
    }

    private static QueueMode mode(String id, String where) {
        return QueueMode.parse(id).orElseThrow(() -> new IllegalStateException("unknown queue mode '" + id + "' in " + where));
    }

    private static DropPolicy drop(String id, String where) {
        return DropPolicy.parse(id).orElseThrow(() -> new IllegalStateException("unknown drop policy '" + id + "' in " + where));
    }

    private static InboundMessage.Origin origin(String id, String where) {
        try {
            return InboundMessage.Origin.valueOf(id.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("unknown origin '" + id + "' in " + where, e);
        }
    }

    private static String write(ObjectNode node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("could not write JSON", e);
        }
    }

    private static JsonNode read(String json, String where) {
        try {
            JsonNode node = JSON.readTree(json);
            if (node == null || !node.isObject()) {
                throw new IllegalStateException("not a JSON object in " + where);
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable JSON in " + where + ": " + e.getOriginalMessage(), e);
        }
    }

    private static String text(JsonNode node, String field, String where) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw new IllegalStateException("field " + field + " is not text in " + where);
        }
        return value.asText();
    }

    private static String required(JsonNode node, String field, String where) {
        String value = text(node, field, where);
        if (value == null) {
            throw new IllegalStateException("field " + field + " is missing in " + where);
        }
        return value;
    }

    private static long number(JsonNode node, String field, String where) {
        JsonNode value = node.get(field);
        if (value == null || !value.isIntegralNumber()) {
            throw new IllegalStateException("field " + field + " is missing or not an integer in " + where);
        }
        return value.asLong();
    }
}
