package dev.laneway.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.laneway.core.store.SessionStore;
import dev.laneway.core.store.SessionStoreFiresContract;
import dev.laneway.core.testing.ManualTime;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SQLite store keeps the fires contract, and a recorded fire is on disk when
 * {@code recordFire} returns (schema version 5, table {@code schedule_fires}).
 */
class ScheduleFiresTest extends SessionStoreFiresContract {

    @TempDir
    Path dir;
    private final ManualTime clock = Fixtures.clock();
    private final List<SqliteStore> opened = new ArrayList<>();

    @Override
    protected SessionStore store() {
        SqliteStore store = SqliteStore.open(dir, Fixtures.options(clock));
        opened.add(store);
        return store;
    }

    @AfterEach
    void closeStores() {
        opened.forEach(SqliteStore::close);
    }

    @Test
    void aRecordedFireSurvivesAReopen_andIsCommittedWhenRecordFireReturns() throws Exception {
        Instant at = Instant.parse("2026-03-02T07:00:00.5Z");
        try (SqliteStore store = SqliteStore.open(dir, Fixtures.options(clock))) {
            store.recordFire("morning", at);
            // read by another connection while the store is still open: the row is committed
            assertEquals(1, Fixtures.count(dir, "SELECT count(*) FROM schedule_fires WHERE job_id = 'morning'"));
        }
        try (SqliteStore store = SqliteStore.open(dir, Fixtures.options(clock))) {
            assertEquals(Optional.of(at), store.lastFire("morning"));
        }
    }

    @Test
    void recordingAfterCloseFailsClearly() {
        SqliteStore store = SqliteStore.open(dir, Fixtures.options(clock));
        store.close();
        StoreException e = assertThrows(StoreException.class, () -> store.recordFire("morning", Fixtures.T0));
        assertEquals(true, e.getMessage().contains("closed"), e.getMessage());
    }
}
