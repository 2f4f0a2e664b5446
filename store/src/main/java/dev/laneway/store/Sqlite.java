package dev.laneway.store;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/** Opens connections to the database file with Laneway's settings, and turns SQLite errors into messages. */
final class Sqlite {

    private Sqlite() {
    }

    /**
     * A connection with a busy timeout and nothing else set: what {@link Migrations#check} needs to
     * look at a file without changing it.
     */
    static Connection open(Path file, StoreOptions options) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout((int) options.busyTimeout().toMillis());
        return config.createConnection("jdbc:sqlite:" + file.toAbsolutePath());
    }

    /**
     * Makes {@code connection} the writer's: WAL, the configured {@code synchronous}, a bounded WAL
     * file. Transactions are begun explicitly ({@code BEGIN IMMEDIATE}); JDBC auto-commit stays on.
     */
    static void configureWriter(Connection connection, StoreOptions options) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            String mode = text(statement, "PRAGMA journal_mode=WAL");
            if (!"wal".equalsIgnoreCase(mode)) {
                throw new SQLException("could not switch to WAL mode (journal_mode is " + mode + ")");
            }
            statement.execute("PRAGMA synchronous=" + options.synchronous().name());
            statement.execute("PRAGMA journal_size_limit=" + (64L << 20));
            statement.execute("PRAGMA temp_store=MEMORY");
        }
    }

    /** The reader's connection: a second connection on the same file that may only read. */
    static Connection openReader(Path file, StoreOptions options) throws SQLException {
        Connection connection = open(file, options);
        try (Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA query_only=1");
        } catch (SQLException | RuntimeException e) {
            closeQuietly(connection);
            throw e;
        }
        return connection;
    }

    static String text(Statement statement, String sql) throws SQLException {
        try (ResultSet rows = statement.executeQuery(sql)) {
            return rows.next() ? rows.getString(1) : null;
        }
    }

    static long number(Statement statement, String sql) throws SQLException {
        try (ResultSet rows = statement.executeQuery(sql)) {
            return rows.next() ? rows.getLong(1) : 0;
        }
    }

    /** Whether SQLite says the file is not a database, or a damaged one. */
    static boolean unreadable(SQLException e) {
        if (e instanceof SQLiteException sqlite) {
            SQLiteErrorCode code = sqlite.getResultCode();
            int primary = code.code & 0xff;
            return primary == SQLiteErrorCode.SQLITE_NOTADB.code || primary == SQLiteErrorCode.SQLITE_CORRUPT.code;
        }
        String message = String.valueOf(e.getMessage());
        return message.contains("SQLITE_NOTADB") || message.contains("SQLITE_CORRUPT");
    }

    static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception ignored) {
            // closing after a failure: the first error is the one worth reporting
        }
    }
}
