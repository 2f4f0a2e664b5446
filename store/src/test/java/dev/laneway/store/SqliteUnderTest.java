package dev.laneway.store;

import dev.laneway.core.SessionKey;
import dev.laneway.core.store.JournalEntry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

/** The SQLite store for the contract suite: a data directory, looked at with raw SQL beside the store. */
final class SqliteUnderTest implements StoreUnderTest {

    private final Path dir;
    private final boolean deleteOnClose;

    SqliteUnderTest(Path dir) {
        this(dir, false);
    }

    private SqliteUnderTest(Path dir, boolean deleteOnClose) {
        this.dir = dir;
        this.deleteOnClose = deleteOnClose;
    }

    /** In a temporary directory of its own, deleted at {@link #close()} (for jqwik, which has no @TempDir). */
    static SqliteUnderTest inTempDir() throws IOException {
        return new SqliteUnderTest(Files.createTempDirectory("laneway-store-contract"), true);
    }

    @Override
    public DurableStore open(StoreOptions options) {
        return SqliteStore.open(dir, options);
    }

    @Override
    public void holdWriter(DurableStore store, CountDownLatch release) {
        ((SqliteStore) store).holdWriter(release);
    }

    @Override
    public String name() {
        return SqliteStore.FILE_NAME;
    }

    @Override
    public long knownKeyCount(DurableStore store) {
        return ((SqliteStore) store).seenKeyCount();
    }

    @Override
    public OptionalLong answeredAt(JournalEntry entry) {
        long rows = count("SELECT count(*) FROM messages WHERE state = 'answered' AND seq = " + entry.seq());
        return rows == 0 ? OptionalLong.empty()
                : OptionalLong.of(count("SELECT settled_at FROM messages WHERE seq = " + entry.seq()));
    }

    @Override
    public boolean hasRecord(JournalEntry entry) {
        return count("SELECT count(*) FROM messages WHERE seq = " + entry.seq()) > 0;
    }

    @Override
    public long journalRecordCount() {
        return count("SELECT count(*) FROM messages");
    }

    @Override
    public long pendingRecordCount() {
        return count("SELECT count(*) FROM messages WHERE state = 'pending'");
    }

    @Override
    public long historyCount(SessionKey session) {
        return count("SELECT count(*) FROM history WHERE session = '" + session.value().replace("'", "''") + "'");
    }

    @Override
    public long totalHistoryCount() {
        return count("SELECT count(*) FROM history");
    }

    @Override
    public boolean fireRecorded(String jobId) {
        return count("SELECT count(*) FROM schedule_fires WHERE job_id = '" + jobId.replace("'", "''") + "'") == 1;
    }

    /** Triggers that fail every update and delete of the messages table, as {@code SQLITE_FULL} would. */
    @Override
    public void refuseWrites(boolean refuse) {
        try (Connection connection = Fixtures.raw(dir); Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA busy_timeout = 5000");
            if (refuse) {
                statement.execute("CREATE TRIGGER full_update BEFORE UPDATE ON messages"
                        + " BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END");
                statement.execute("CREATE TRIGGER full_delete BEFORE DELETE ON messages"
                        + " BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END");
            } else {
                statement.execute("DROP TRIGGER full_update");
                statement.execute("DROP TRIGGER full_delete");
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public Class<?> writerClass() {
        return StoreWriter.class;
    }

    @Override
    public void close() {
        if (!deleteOnClose) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private long count(String sql) {
        try {
            return Fixtures.count(dir, sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }
}
