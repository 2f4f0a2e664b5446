package dev.laneway.store;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The session state contract on SQLite. */
class SessionStateTest extends SessionStateContract {

    @TempDir
    Path dir;

    @Override
    protected StoreUnderTest subject() {
        return new SqliteUnderTest(dir);
    }
}
