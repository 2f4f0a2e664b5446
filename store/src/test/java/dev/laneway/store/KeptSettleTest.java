package dev.laneway.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import dev.laneway.core.testing.LogCapture;
import dev.laneway.core.testing.ManualTime;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A record of an ended message that the disk refuses (full, failing) is not dropped: the writer
 * keeps it, retries it with backoff, and writes it once the disk takes it, so a restart after that
 * answers nothing twice. The refusal is simulated with triggers that fail every update and delete
 * of the messages table, as {@code SQLITE_FULL} would.
 */
class KeptSettleTest {

    @TempDir
    Path dir;

    private final ManualTime clock = Fixtures.clock();

    private SqliteStore open() {
        return SqliteStore.open(dir, Fixtures.options(clock));
    }

    private void diskFull(boolean full) throws SQLException {
        try (Connection connection = Fixtures.raw(dir); Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA busy_timeout = 5000");
            if (full) {
                statement.execute("CREATE TRIGGER full_update BEFORE UPDATE ON messages"
                        + " BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END");
                statement.execute("CREATE TRIGGER full_delete BEFORE DELETE ON messages"
                        + " BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END");
            } else {
                statement.execute("DROP TRIGGER full_update");
                statement.execute("DROP TRIGGER full_delete");
            }
        }
    }

    private long pendingRows() throws SQLException {
        return Fixtures.count(dir, "SELECT count(*) FROM messages WHERE state = 'pending'");
    }

    @Test
    void refusedRecords_areKeptAndWrittenOnceTheDiskTakesThem_withOneErrorLine() throws Exception {
        String answeredKey = Fixtures.entry(1).messageKey();
        try (LogCapture log = LogCapture.of(StoreWriter.class); SqliteStore store = open()) {
            for (long seq = 1; seq <= 3; seq++) {
                store.append(Fixtures.entry(seq)).join();
            }
            diskFull(true);
            store.settled(1, true);
            store.settled(2, false);
            store.settled(3, true);
            store.flush();
            assertEquals(3, pendingRows(), "nothing could be written");
            assertTrue(store.seen(answeredKey), "the answered message is still known, so a redelivery is a duplicate");
            assertEquals(1, log.lines().stream().filter(line -> line.level() == Level.ERROR).count(), log.lines().toString());

            clock.advance(Duration.ofSeconds(1));
            store.flush(); // the first retry is due: refused again, the next one waits 2 s
            assertEquals(3, pendingRows());
            assertEquals(1, log.lines().stream().filter(line -> line.level() == Level.ERROR).count(),
                    "a failed retry logs no ERROR line");

            diskFull(false);
            clock.advance(Duration.ofSeconds(1));
            store.flush();
            assertEquals(3, pendingRows(), "the second retry is not due before 2 s");
            clock.advance(Duration.ofSeconds(1));
            store.flush();
            assertEquals(0, pendingRows(), "all three written in the retry");
            assertEquals(1, Fixtures.count(dir, "SELECT count(*) FROM messages WHERE seq = 3 AND state = 'answered'"));
            assertEquals(0, Fixtures.count(dir, "SELECT count(*) FROM messages WHERE seq = 2"), "the dropped one's row is gone");
            assertTrue(log.lines().stream().anyMatch(line -> line.level() == Level.INFO && line.mentions("written")),
                    log.lines().toString());
        }
        try (SqliteStore store = open()) {
            assertEquals(List.of(), store.pending(), "nothing runs again after the restart");
            assertTrue(store.seen(answeredKey));
        }
    }

    @Test
    void recordsStillRefusedAtClose_failThere_withOneErrorLine_andTheirMessagesStayPending() throws Exception {
        try (LogCapture log = LogCapture.of(StoreWriter.class)) {
            try (SqliteStore store = open()) {
                store.append(Fixtures.entry(1)).join();
                store.append(Fixtures.entry(2)).join();
                diskFull(true);
                store.settled(1, true);
                store.settled(2, true);
                store.flush();
            }
            assertEquals(2, log.lines().stream().filter(line -> line.level() == Level.ERROR).count(),
                    "one when the outage began, one at close: " + log.lines());
            assertTrue(log.lines().get(log.lines().size() - 1).mentions("run again after the restart"));
        }
        diskFull(false);
        try (SqliteStore store = open()) {
            assertEquals(2, store.pending().size());
        }
    }
}
