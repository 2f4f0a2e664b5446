package dev.laneway.store;

import dev.laneway.core.QueueOverride;
import dev.laneway.core.store.HistoryEntry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The SQL of every write, prepared once on the writer's connection. Used only by the writer thread
 * (see {@link StoreWriter}); not thread-safe. Transactions are begun and ended by the caller.
 */
final class WriteStatements implements AutoCloseable {

    /** An answered row deleted by {@link #expireAnswered}: the seen-key set forgets its key. */
    record Expired(long seq, String key) { }

    private final Connection connection;
    private final int maxHistory;
    private final Statement plain;
    private final PreparedStatement insertMessage;
    private final PreparedStatement markAnswered;
    private final PreparedStatement deleteMessage;
    private final PreparedStatement raiseLastSeq;
    private final PreparedStatement insertHistory;
    private final PreparedStatement trimHistory;
    private final PreparedStatement clearHistory;
    private final PreparedStatement upsertOverride;
    private final PreparedStatement deleteOverride;
    private final PreparedStatement selectExpired;
    private final PreparedStatement upsertFire;
    private final PreparedStatement upsertLive;
    private final PreparedStatement deleteLive;
    private final PreparedStatement deleteLiveOf;
    private final List<PreparedStatement> all = new ArrayList<>();

    WriteStatements(Connection connection, int maxHistory) throws SQLException {
        this.connection = connection;
        this.maxHistory = maxHistory;
        try {
            plain = connection.createStatement();
            insertMessage = prepare(EntryCodec.INSERT);
            markAnswered = prepare("UPDATE messages SET state = 'answered', settled_at = ? WHERE seq = ? AND state = 'pending'");
            deleteMessage = prepare("DELETE FROM messages WHERE seq = ?");
            raiseLastSeq = prepare("""
                    INSERT INTO meta (key, value) VALUES ('last_seq', ?)
                    ON CONFLICT (key) DO UPDATE SET value = max(value, excluded.value)""");
            insertHistory = prepare("INSERT INTO history (session, role, content, created_at) VALUES (?, ?, ?, ?)");
            trimHistory = prepare("""
                    DELETE FROM history WHERE session = ?1 AND id <= (
                        SELECT id FROM history WHERE session = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2)""");
            clearHistory = prepare("DELETE FROM history WHERE session = ?");
            upsertOverride = prepare("""
                    INSERT INTO session_overrides (session, mode, debounce_ms, cap, drop_policy, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (session) DO UPDATE SET mode = excluded.mode, debounce_ms = excluded.debounce_ms,
                        cap = excluded.cap, drop_policy = excluded.drop_policy, updated_at = excluded.updated_at""");
            deleteOverride = prepare("DELETE FROM session_overrides WHERE session = ?");
            selectExpired = prepare("""
                    SELECT seq, message_key FROM messages
                    WHERE state = 'answered' AND settled_at < ? ORDER BY settled_at LIMIT ?""");
            upsertFire = prepare("""
                    INSERT INTO schedule_fires (job_id, fired_at_sec, fired_at_nano, recorded_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (job_id) DO UPDATE SET fired_at_sec = excluded.fired_at_sec,
                        fired_at_nano = excluded.fired_at_nano, recorded_at = excluded.recorded_at""");
            upsertLive = prepare("""
                    INSERT INTO live_messages (seq, message_id, channel, account, chat_id, thread_id, text, updated_at)
                    SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8 WHERE EXISTS (
                        SELECT 1 FROM messages WHERE seq = ?1 AND state = 'pending')
                    ON CONFLICT (seq, message_id) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at""");
            deleteLive = prepare("DELETE FROM live_messages WHERE seq = ? AND message_id = ?");
            deleteLiveOf = prepare("DELETE FROM live_messages WHERE seq = ?");
        } catch (SQLException | RuntimeException e) {
            close();
            throw e;
        }
    }

    private PreparedStatement prepare(String sql) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        all.add(statement);
        return statement;
    }

    void begin() throws SQLException {
        plain.execute("BEGIN IMMEDIATE");
    }

    void commit() throws SQLException {
        plain.execute("COMMIT");
    }

    /** Rolls back the open transaction, if any; never throws (the caller is already handling a failure). */
    void rollbackQuietly() {
        try {
            plain.execute("ROLLBACK");
        } catch (SQLException ignored) {
            // no transaction was open (SQLite may already have rolled back), or the connection is gone
        }
    }

    void apply(WriteOp op) throws SQLException {
        switch (op) {
            case WriteOp.Append append -> {
                EntryCodec.bind(insertMessage, append.entry(), append.atMillis());
                insertMessage.executeUpdate();
            }
            case WriteOp.Settle settle -> {
                deleteLiveOf.setLong(1, settle.seq());
                deleteLiveOf.executeUpdate();
                if (settle.answered()) {
                    markAnswered.setLong(1, settle.atMillis());
                    markAnswered.setLong(2, settle.seq());
                    markAnswered.executeUpdate();
                } else {
                    deleteMessage.setLong(1, settle.seq());
                    deleteMessage.executeUpdate();
                }
            }
            case WriteOp.AppendHistory history -> appendHistory(history);
            case WriteOp.ClearHistory clear -> {
                clearHistory.setString(1, clear.session());
                clearHistory.executeUpdate();
            }
            case WriteOp.SetOverride set -> setOverride(set);
            case WriteOp.RecordFire fire -> {
                upsertFire.setString(1, fire.jobId());
                upsertFire.setLong(2, fire.firedAt().getEpochSecond());
                upsertFire.setInt(3, fire.firedAt().getNano());
                upsertFire.setLong(4, fire.atMillis());
                upsertFire.executeUpdate();
            }
            case WriteOp.LiveShown shown -> {
                var message = shown.message();
                upsertLive.setLong(1, message.seq());
                upsertLive.setString(2, message.messageId());
                upsertLive.setString(3, message.route().channel());
                upsertLive.setString(4, message.route().account());
                upsertLive.setString(5, message.route().chatId());
                upsertLive.setString(6, message.route().threadId());
                upsertLive.setString(7, message.text());
                upsertLive.setLong(8, shown.atMillis());
                upsertLive.executeUpdate();
            }
            case WriteOp.LiveGone gone -> {
                deleteLive.setLong(1, gone.seq());
                deleteLive.setString(2, gone.messageId());
                deleteLive.executeUpdate();
            }
            case WriteOp.Flush flush -> { }
        }
    }

    private void appendHistory(WriteOp.AppendHistory op) throws SQLException {
        for (HistoryEntry entry : op.entries()) {
            insertHistory.setString(1, op.session());
            insertHistory.setString(2, entry.role());
            insertHistory.setString(3, entry.content());
            insertHistory.setLong(4, op.atMillis());
            insertHistory.executeUpdate();
        }
        trimHistory.setString(1, op.session());
        trimHistory.setInt(2, maxHistory);
        trimHistory.executeUpdate();
    }

    private void setOverride(WriteOp.SetOverride op) throws SQLException {
        QueueOverride override = op.override();
        if (override == null || override.isEmpty()) {
            deleteOverride.setString(1, op.session());
            deleteOverride.executeUpdate();
            return;
        }
        upsertOverride.setString(1, op.session());
        upsertOverride.setString(2, Columns.mode(override.mode()));
        Columns.setNullableLong(upsertOverride, 3, Columns.millis(override.debounce()));
        Columns.setNullableInt(upsertOverride, 4, override.cap());
        upsertOverride.setString(5, Columns.drop(override.drop()));
        upsertOverride.setLong(6, op.atMillis());
        upsertOverride.executeUpdate();
    }

    /** Records the highest sequence number appended so far; never lowers it. */
    void raiseLastSequence(long seq) throws SQLException {
        raiseLastSeq.setLong(1, seq);
        raiseLastSeq.executeUpdate();
    }

    /**
     * Deletes up to {@code limit} answered rows settled before {@code cutoffMillis}, oldest first, in
     * the caller's transaction; returns them.
     */
    List<Expired> expireAnswered(long cutoffMillis, int limit) throws SQLException {
        List<Expired> expired = new ArrayList<>();
        selectExpired.setLong(1, cutoffMillis);
        selectExpired.setInt(2, limit);
        try (ResultSet rows = selectExpired.executeQuery()) {
            while (rows.next()) {
                expired.add(new Expired(rows.getLong(1), rows.getString(2)));
            }
        }
        for (Expired row : expired) {
            deleteMessage.setLong(1, row.seq());
            deleteMessage.executeUpdate();
        }
        return expired;
    }

    /** Moves the WAL into the database file and truncates it (at close). */
    void checkpoint() throws SQLException {
        plain.execute("PRAGMA wal_checkpoint(TRUNCATE)");
    }

    @Override
    public void close() {
        all.forEach(Sqlite::closeQuietly);
        Sqlite.closeQuietly(plain);
    }
}
