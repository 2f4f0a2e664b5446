package dev.laneway.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.laneway.core.Attachment;
import dev.laneway.core.InboundMessage;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.store.JournalEntry;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A {@link JournalEntry} as a row of {@code messages}, and back, field for field: the message's
 * fields each in a column, attachments as a JSON array ({@code [{"kind":..,"name":..}]}, NULL when
 * there are none), {@code receivedAt} as epoch seconds plus nanoseconds (exact), the resolved queue
 * settings in four columns, {@code acceptedAt} as epoch millis in {@code accepted_at}. Stateless and thread-safe.
 */
final class EntryCodec {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<List<Attachment>> ATTACHMENTS = new TypeReference<>() { };

    static final String INSERT = """
            INSERT INTO messages (seq, session, message_key, channel, account, chat_id, thread_id, sender_id,
                sender_name, text, effective_text, attachments, platform_message_id, received_at_sec,
                received_at_nano, direct, mentions_bot, sender_is_admin, trusted, queue_mode, queue_debounce_ms,
                queue_cap, queue_drop, state, accepted_at, space_id, origin)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)""";

    /** The columns {@link #decode} reads. */
    static final String COLUMNS = """
            seq, session, channel, account, chat_id, thread_id, sender_id, sender_name, text, effective_text,
            attachments, platform_message_id, received_at_sec, received_at_nano, direct, mentions_bot,
            sender_is_admin, trusted, queue_mode, queue_debounce_ms, queue_cap, queue_drop, accepted_at, space_id, origin""";

    private EntryCodec() {
    }

    /** Binds every parameter of {@link #INSERT}. */
    static void bind(PreparedStatement insert, JournalEntry entry, long acceptedAtMillis) throws SQLException {
        InboundMessage message = entry.message();
        QueueSettings settings = entry.settings();
        int i = 0;
        insert.setLong(++i, entry.seq());
        insert.setString(++i, entry.session());
        insert.setString(++i, entry.messageKey());
        insert.setString(++i, message.channel());
        insert.setString(++i, message.account());
        insert.setString(++i, message.chatId());
        insert.setString(++i, message.threadId());
        insert.setString(++i, message.senderId());
        insert.setString(++i, message.senderName());
        insert.setString(++i, message.text());
        insert.setString(++i, entry.text());
        insert.setString(++i, attachments(message.attachments()));
        insert.setString(++i, message.platformMessageId());
        insert.setLong(++i, message.receivedAt().getEpochSecond());
        insert.setInt(++i, message.receivedAt().getNano());
        insert.setInt(++i, message.direct() ? 1 : 0);
        insert.setInt(++i, message.mentionsBot() ? 1 : 0);
        insert.setInt(++i, message.senderIsAdmin() ? 1 : 0);
        insert.setInt(++i, entry.trusted() ? 1 : 0);
        insert.setString(++i, Columns.mode(settings.mode()));
        insert.setLong(++i, settings.debounce().toMillis());
        insert.setInt(++i, settings.cap());
        insert.setString(++i, Columns.drop(settings.drop()));
        insert.setLong(++i, acceptedAtMillis);
        insert.setString(++i, message.spaceId());
        insert.setString(++i, message.origin().name().toLowerCase(java.util.Locale.ROOT));
    }

    /** The entry on the current row of a query that selected {@link #COLUMNS} first, in that order. */
    static JournalEntry decode(ResultSet row) throws SQLException {
        // by position, in the order of COLUMNS: the driver looks names up on every call
        long seq = row.getLong(1);
        String where = "messages row seq=" + seq;
        String session = row.getString(2);
        InboundMessage message = new InboundMessage(
                row.getString(3),                                   // channel
                row.getString(4),                                   // account
                row.getString(5),                                   // chat_id
                row.getString(6),                                   // thread_id
                row.getString(7),                                   // sender_id
                row.getString(8),                                   // sender_name
                row.getString(9),                                   // text
                attachments(row.getString(11), where),              // attachments
                row.getString(12),                                  // platform_message_id
                Instant.ofEpochSecond(row.getLong(13), row.getInt(14)), // received_at_sec, received_at_nano
                row.getInt(15) != 0,                                // direct
                row.getInt(16) != 0,                                // mentions_bot
                row.getInt(17) != 0,                                // sender_is_admin
                row.getString(24),                                  // space_id
                origin(row.getString(25), where));                  // origin
        String effectiveText = row.getString(10);
        boolean trusted = row.getInt(18) != 0;
        QueueSettings settings = new QueueSettings(
                Columns.mode(row.getString(19), where),             // queue_mode
                Duration.ofMillis(row.getLong(20)),                 // queue_debounce_ms
                row.getInt(21),                                     // queue_cap
                Columns.drop(row.getString(22), where));            // queue_drop
        Instant acceptedAt = Instant.ofEpochMilli(row.getLong(23));            // accepted_at
        return new JournalEntry(seq, session, message, effectiveText, settings, trusted, acceptedAt);
    }

    static InboundMessage.Origin origin(String column, String where) {
        try {
            return InboundMessage.Origin.valueOf(column.toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("unknown origin '" + column + "' in " + where, e);
        }
    }

    static String attachments(List<Attachment> attachments) {
        if (attachments.isEmpty()) {
            return null;
        }
        try {
            return JSON.writeValueAsString(attachments);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("attachments could not be written as JSON", e);
        }
    }

    static List<Attachment> attachments(String json, String where) {
        if (json == null) {
            return List.of();
        }
        try {
            return JSON.readValue(json, ATTACHMENTS);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable attachments in " + where + ": " + e.getOriginalMessage(), e);
        }
    }
}
