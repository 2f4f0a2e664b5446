package dev.laneway.store;

import dev.laneway.core.QueueOverride;
import dev.laneway.core.Route;
import dev.laneway.core.store.HistoryEntry;
import dev.laneway.core.store.JournalEntry;
import dev.laneway.core.store.LiveMessage;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Every read of the store, on a connection of its own. WAL lets it read a committed snapshot while
 * the writer thread writes, so readers never wait for a group commit.
 *
 * <p>Concurrency: {@code lock} guards the connection and its prepared statements (a JDBC connection
 * is not for concurrent use); each method holds it for one query. {@code closed} is guarded by it too.
 */
final class StoreReader implements AutoCloseable {

    private final Path file;
    private final Connection connection;
    private final ReentrantLock lock = new ReentrantLock();
    private final PreparedStatement history;
    private final PreparedStatement answered;
    private boolean closed; // guarded by lock

    StoreReader(Path file, Connection connection) throws SQLException {
        this.file = file;
        this.connection = connection;
        this.history = connection.prepareStatement("""
                SELECT role, content FROM (
                    SELECT id, role, content FROM history WHERE session = ? ORDER BY id DESC LIMIT ?)
                ORDER BY id""");
        this.answered = connection.prepareStatement("""
                SELECT 1 FROM messages
                WHERE message_key = ? AND state = 'answered' AND settled_at >= ? LIMIT 1""");
    }

    /** Whether an answered record of {@code key} settled at or after {@code since} (epoch millis) exists. */
    boolean answeredSince(String key, long since) {
        return read(() -> {
            answered.setString(1, key);
            answered.setLong(2, since);
            try (ResultSet rows = answered.executeQuery()) {
                return rows.next();
            }
        });
    }

    /** The last {@code limit} history entries of a session, oldest first. */
    List<HistoryEntry> history(String session, int limit) {
        return read(() -> {
            history.setString(1, session);
            history.setInt(2, limit);
            List<HistoryEntry> entries = new ArrayList<>();
            try (ResultSet rows = history.executeQuery()) {
                while (rows.next()) {
                    entries.add(new HistoryEntry(rows.getString(1), rows.getString(2)));
                }
            }
            return entries;
        });
    }

    /**
     * The live messages recorded for these pending messages, in sequence order (the table holds only
     * streams in progress, so it is read whole and filtered here).
     */
    List<LiveMessage> liveMessages(java.util.Set<Long> seqs) {
        return read(() -> {
            List<LiveMessage> messages = new ArrayList<>();
            try (Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery("""
                         SELECT l.seq, l.message_id, l.channel, l.account, l.chat_id, l.thread_id, l.text
                         FROM live_messages l JOIN messages m ON m.seq = l.seq AND m.state = 'pending'
                         ORDER BY l.seq, l.updated_at, l.message_id""")) {
                while (rows.next()) {
                    if (seqs.contains(rows.getLong(1))) {
                        messages.add(new LiveMessage(rows.getLong(1), new Route(rows.getString(3), rows.getString(4),
                                rows.getString(5), rows.getString(6), null), rows.getString(2), rows.getString(7)));
                    }
                }
            }
            return messages;
        });
    }

    /** Every pending message, in sequence order. */
    List<JournalEntry> pending() {
        return read(() -> {
            List<JournalEntry> entries = new ArrayList<>();
            try (Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery("SELECT " + EntryCodec.COLUMNS
                         + " FROM messages WHERE state = 'pending' ORDER BY seq")) {
                while (rows.next()) {
                    entries.add(EntryCodec.decode(rows));
                }
            }
            return entries;
        });
    }

    /** Every stored /queue override, by session key. */
    Map<String, QueueOverride> overrides() {
        return read(() -> {
            Map<String, QueueOverride> overrides = new HashMap<>();
            try (Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery(
                         "SELECT session, mode, debounce_ms, cap, drop_policy FROM session_overrides")) {
                while (rows.next()) {
                    String session = rows.getString("session");
                    String where = "session_overrides row '" + session + "'";
                    overrides.put(session, new QueueOverride(
                            Columns.mode(rows.getString("mode"), where),
                            Columns.duration(Columns.nullableLong(rows, "debounce_ms")),
                            Columns.nullableInt(rows, "cap"),
                            Columns.drop(rows.getString("drop_policy"), where)));
                }
            }
            return overrides;
        });
    }

    /** Every scheduled job's last fire, by job id. */
    Map<String, java.time.Instant> fires() {
        return read(() -> {
            Map<String, java.time.Instant> fires = new HashMap<>();
            try (Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery("SELECT job_id, fired_at_sec, fired_at_nano FROM schedule_fires")) {
                while (rows.next()) {
                    fires.put(rows.getString(1), java.time.Instant.ofEpochSecond(rows.getLong(2), rows.getInt(3)));
                }
            }
            return fires;
        });
    }

    /**
     * Fills the seen-key set: every pending row, and the newest {@code maxAnswered} answered rows
     * settled at or after {@code answeredSince} (oldest first); when there are more, the set learns how
     * long the ones left on disk stay within the retention.
     */
    void loadKeys(SeenKeys keys, long answeredSince, int maxAnswered) {
        read(() -> {
            try (Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery(
                         "SELECT seq, message_key FROM messages WHERE message_key IS NOT NULL AND state = 'pending'")) {
                while (rows.next()) {
                    keys.pending(rows.getLong(1), rows.getString(2));
                }
            }
            List<Long> seqs = new ArrayList<>();
            List<String> messageKeys = new ArrayList<>();
            List<Long> settledAt = new ArrayList<>();
            try (PreparedStatement statement = connection.prepareStatement("""
                    SELECT seq, message_key, settled_at FROM messages
                    WHERE message_key IS NOT NULL AND state = 'answered' AND settled_at >= ?
                    ORDER BY settled_at DESC, seq DESC LIMIT ?""")) {
                statement.setLong(1, answeredSince);
                statement.setLong(2, (long) maxAnswered + 1);
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        seqs.add(rows.getLong(1));
                        messageKeys.add(rows.getString(2));
                        settledAt.add(rows.getLong(3));
                    }
                }
            }
            if (seqs.size() > maxAnswered) {
                keys.leftOnDisk(settledAt.get(maxAnswered)); // the newest row not loaded
            }
            for (int i = Math.min(maxAnswered, seqs.size()) - 1; i >= 0; i--) {
                keys.answered(seqs.get(i), messageKeys.get(i), settledAt.get(i));
            }
            return null;
        });
    }

    /** The highest sequence number ever appended: the meta row, or the rows themselves if higher. */
    long lastSequence() {
        return read(() -> {
            try (Statement statement = connection.createStatement()) {
                long meta = Sqlite.number(statement, "SELECT coalesce(max(value), 0) FROM meta WHERE key = 'last_seq'");
                long rows = Sqlite.number(statement, "SELECT coalesce(max(seq), 0) FROM messages");
                return Math.max(meta, rows);
            }
        });
    }

    private interface Query<T> {
        T run() throws SQLException;
    }

    private <T> T read(Query<T> query) {
        lock.lock();
        try {
            if (closed) {
                throw new StoreException("the store " + file + " is closed");
            }
            return query.run();
        } catch (SQLException | RuntimeException e) {
            if (e instanceof StoreException store) {
                throw store;
            }
            throw new StoreException("could not read the store " + file + ": " + e.getMessage(), e);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        lock.lock();
        try {
            if (!closed) {
                closed = true;
                Sqlite.closeQuietly(history);
                Sqlite.closeQuietly(answered);
                Sqlite.closeQuietly(connection);
            }
        } finally {
            lock.unlock();
        }
    }
}
