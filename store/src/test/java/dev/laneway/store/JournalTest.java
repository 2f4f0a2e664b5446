package dev.laneway.store;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The journal contract on SQLite, and what only a file has: the WAL checkpoint at close. */
class JournalTest extends JournalContract {

    @TempDir
    Path dir;

    @Override
    protected StoreUnderTest subject() {
        return new SqliteUnderTest(dir);
    }

    @Test
    void closeCheckpointsTheWalIntoTheDatabaseFile() throws Exception {
        DurableStore store = open();
        store.append(Fixtures.entry(1)).join();
        store.settled(1, true); // not awaited: close commits it
        store.close();
        Path wal = dir.resolve(SqliteStore.FILE_NAME + "-wal");
        assertTrue(!Files.exists(wal) || Files.size(wal) == 0);
        assertTrue(subject.answeredAt(Fixtures.entry(1)).isPresent());
    }
}
