package dev.laneway.store;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The kept-settle contract on SQLite: the disk refuses through triggers, as {@code SQLITE_FULL} would. */
class KeptSettleTest extends KeptSettleContract {

    @TempDir
    Path dir;

    @Override
    protected StoreUnderTest subject() {
        return new SqliteUnderTest(dir);
    }
}
