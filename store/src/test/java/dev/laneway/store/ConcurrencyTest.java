package dev.laneway.store;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The concurrency contract on SQLite. */
class ConcurrencyTest extends ConcurrencyContract {

    @TempDir
    Path dir;

    @Override
    protected StoreUnderTest subject() {
        return new SqliteUnderTest(dir);
    }
}
