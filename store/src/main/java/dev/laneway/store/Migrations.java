package dev.laneway.store;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The schema, as an ordered list of migrations. The database's {@code PRAGMA user_version} is the
 * number of the last migration applied; at open every later migration runs, all of them in one
 * transaction, so a failed start leaves the file as it was. A version newer than {@link #LATEST}
 * (written by a newer Laneway) is refused, never downgraded or wiped. {@code PRAGMA application_id}
 * marks the file as Laneway's, so another program's SQLite file is refused too.
 *
 * <p>Append migrations; never edit one that has shipped.
 */
final class Migrations {

    /** "LNWY": the {@code application_id} of a Laneway store. */
    static final int APPLICATION_ID = 0x4C4E5759;

    /** One step of the schema: the statements that take version {@code version - 1} to {@code version}. */
    record Migration(int version, String description, List<String> statements) {
    }

    static final List<Migration> ALL = List.of(
            new Migration(1, "session state: /queue overrides and conversation history", List.of(
                    "PRAGMA application_id = " + APPLICATION_ID,
                    """
                    CREATE TABLE session_overrides (
                        session      TEXT PRIMARY KEY,
                        mode         TEXT,
                        debounce_ms  INTEGER,
                        cap          INTEGER,
                        drop_policy  TEXT,
                        updated_at   INTEGER NOT NULL
                    )""",
                    """
                    CREATE TABLE history (
                        id          INTEGER PRIMARY KEY,
                        session     TEXT NOT NULL,
                        role        TEXT NOT NULL,
                        content     TEXT NOT NULL,
                        created_at  INTEGER NOT NULL
                    )""",
                    "CREATE INDEX history_by_session ON history (session, id)")),
            new Migration(2, "message journal: accepted messages until they end, answered records for dedupe", List.of(
                    """
                    CREATE TABLE meta (
                        key    TEXT PRIMARY KEY,
                        value  INTEGER NOT NULL
                    )""",
                    // 'ended' is reserved: this version deletes a message that ended unanswered.
                    """
                    CREATE TABLE messages (
                        seq                  INTEGER PRIMARY KEY,
                        session              TEXT NOT NULL,
                        message_key          TEXT,
                        channel              TEXT NOT NULL,
                        account              TEXT NOT NULL,
                        chat_id              TEXT NOT NULL,
                        thread_id            TEXT,
                        sender_id            TEXT NOT NULL,
                        sender_name          TEXT NOT NULL,
                        text                 TEXT NOT NULL,
                        effective_text       TEXT NOT NULL,
                        attachments          TEXT,
                        platform_message_id  TEXT,
                        received_at_sec      INTEGER NOT NULL,
                        received_at_nano     INTEGER NOT NULL,
                        direct               INTEGER NOT NULL,
                        mentions_bot         INTEGER NOT NULL,
                        sender_is_admin      INTEGER NOT NULL,
                        trusted              INTEGER NOT NULL,
                        queue_mode           TEXT NOT NULL,
                        queue_debounce_ms    INTEGER NOT NULL,
                        queue_cap            INTEGER NOT NULL,
                        queue_drop           TEXT NOT NULL,
                        state                TEXT NOT NULL CHECK (state IN ('pending', 'answered', 'ended')),
                        accepted_at          INTEGER NOT NULL,
                        settled_at           INTEGER
                    )""",
                    "CREATE INDEX messages_pending ON messages (seq) WHERE state = 'pending'",
                    "CREATE INDEX messages_answered ON messages (settled_at) WHERE state = 'answered'")),
            new Migration(3, "dedupe lookups by message key, for answered records the heap no longer holds", List.of(
                    "CREATE INDEX messages_by_key ON messages (message_key) WHERE message_key IS NOT NULL")),
            new Migration(4, "a message's space (guild, workspace) and origin, for the scheduler's tenant and class", List.of(
                    "ALTER TABLE messages ADD COLUMN space_id TEXT",
                    "ALTER TABLE messages ADD COLUMN origin TEXT NOT NULL DEFAULT 'message'"
                            + " CHECK (origin IN ('message', 'slash_command', 'schedule'))")),
            new Migration(5, "scheduled jobs: each job's last fire, so a restart never fires it twice", List.of(
                    """
                    CREATE TABLE schedule_fires (
                        job_id         TEXT PRIMARY KEY,
                        fired_at_sec   INTEGER NOT NULL,
                        fired_at_nano  INTEGER NOT NULL,
                        recorded_at    INTEGER NOT NULL
                    )""")),
            new Migration(6, "live messages of streamed answers, marked interrupted after a crash", List.of(
                    // rows of a pending message only; its settle deletes them (docs/behaviour.md §16.3)
                    """
                    CREATE TABLE live_messages (
                        seq         INTEGER NOT NULL,
                        message_id  TEXT NOT NULL,
                        channel     TEXT NOT NULL,
                        account     TEXT NOT NULL,
                        chat_id     TEXT NOT NULL,
                        thread_id   TEXT,
                        text        TEXT NOT NULL,
                        updated_at  INTEGER NOT NULL,
                        PRIMARY KEY (seq, message_id)
                    )""")));

    static final int LATEST = ALL.get(ALL.size() - 1).version();

    private Migrations() {
    }

    /**
     * The schema version of the database, after checking that this binary may touch it: throws
     * {@link StoreException} for a file that is not a Laneway store or is newer than this binary.
     * Reads only, so a refused file is left exactly as it was.
     */
    static int check(Connection connection, Path file) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            int version = (int) Sqlite.number(statement, "PRAGMA user_version");
            int applicationId = (int) Sqlite.number(statement, "PRAGMA application_id");
            if (version > LATEST) {
                throw new StoreException("The Laneway store " + file + " has schema version " + version
                        + ", but this Laneway knows versions up to " + LATEST + ": it was written by a newer Laneway."
                        + " Run that newer version, or move the file aside to start with an empty store"
                        + " (its queued messages and history would then be lost). The file was not modified.");
            }
            if (version > 0 && applicationId != APPLICATION_ID || version == 0 && applicationId != 0) {
                throw foreign(file, "its application_id is 0x" + Integer.toHexString(applicationId));
            }
            if (version == 0 && Sqlite.number(statement, "SELECT count(*) FROM sqlite_schema") > 0) {
                throw foreign(file, "it has tables but no Laneway schema version");
            }
            return version;
        }
    }

    /** Applies every migration after {@code from}, all in one transaction; a no-op at {@link #LATEST}. */
    static void migrate(Connection connection, int from) throws SQLException {
        if (from >= LATEST) {
            return;
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute("BEGIN IMMEDIATE");
            try {
                for (Migration migration : ALL) {
                    if (migration.version() > from) {
                        for (String sql : migration.statements()) {
                            statement.execute(sql);
                        }
                    }
                }
                statement.execute("PRAGMA user_version = " + LATEST);
                statement.execute("COMMIT");
            } catch (SQLException | RuntimeException e) {
                try {
                    statement.execute("ROLLBACK");
                } catch (SQLException rollback) {
                    e.addSuppressed(rollback);
                }
                throw e;
            }
        }
    }

    private static StoreException foreign(Path file, String why) {
        return new StoreException("The file " + file + " is a SQLite database but not a Laneway store (" + why + ")."
                + " Point gateway.dataDir at another directory, or move the file aside. The file was not modified.");
    }
}
