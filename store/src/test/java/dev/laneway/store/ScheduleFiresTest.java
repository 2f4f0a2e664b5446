package dev.laneway.store;

import dev.laneway.core.store.SessionStore;
import dev.laneway.core.store.SessionStoreFiresContract;
import dev.laneway.core.testing.ManualTime;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SQLite store keeps the fires contract of every {@code SessionStore}; that a recorded fire is
 * on disk when {@code recordFire} returns and survives a reopen is in {@link SessionStateContract}.
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
}
