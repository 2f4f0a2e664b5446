package dev.laneway.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueOverride;
import dev.laneway.core.SessionKey;
import dev.laneway.core.store.HistoryEntry;
import dev.laneway.core.testing.ManualTime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OpenAndSchemaTest {

    @TempDir
    Path dir;

    private final ManualTime clock = Fixtures.clock();

    private Path file() {
        return dir.resolve(SqliteStore.FILE_NAME).toAbsolutePath();
    }

    @Test
    void opensAFreshStore_creatingTheDirectory_inWalModeAtTheLatestVersion() throws Exception {
        Path nested = dir.resolve("a/b/data");
        try (SqliteStore store = SqliteStore.open(nested, Fixtures.options(clock))) {
            assertEquals(nested.resolve("laneway.db").toAbsolutePath(), store.file());
            assertTrue(Files.exists(store.file()));
        }
        assertEquals("wal", Fixtures.text(nested, "PRAGMA journal_mode"));
        assertEquals(Migrations.LATEST, Fixtures.count(nested, "PRAGMA user_version"));
        assertEquals(Migrations.APPLICATION_ID, Fixtures.count(nested, "PRAGMA application_id"));
    }

    @Test
    void migratesAVersion1Database_keepingItsData() throws Exception {
        // version 1 as it shipped: session state only, no journal
        try (Connection connection = Fixtures.raw(dir); Statement sql = connection.createStatement()) {
            sql.execute("PRAGMA application_id = 1280202585");
            sql.execute("CREATE TABLE session_overrides (session TEXT PRIMARY KEY, mode TEXT, debounce_ms INTEGER,"
                    + " cap INTEGER, drop_policy TEXT, updated_at INTEGER NOT NULL)");
            sql.execute("CREATE TABLE history (id INTEGER PRIMARY KEY, session TEXT NOT NULL, role TEXT NOT NULL,"
                    + " content TEXT NOT NULL, created_at INTEGER NOT NULL)");
            sql.execute("CREATE INDEX history_by_session ON history (session, id)");
            sql.execute("INSERT INTO session_overrides VALUES ('s1', 'followup', 750, NULL, 'old', 0)");
            sql.execute("INSERT INTO history (session, role, content, created_at) VALUES ('s1', 'user', 'hi', 0),"
                    + " ('s1', 'assistant', 'hello', 0)");
            sql.execute("PRAGMA user_version = 1");
        }
        try (SqliteStore store = SqliteStore.open(dir, Fixtures.options(clock))) {
            assertEquals(Optional.of(new QueueOverride(QueueMode.FOLLOWUP, Duration.ofMillis(750), null, DropPolicy.OLD)),
                    store.queueOverride(SessionKey.of("s1")));
            assertEquals(List.of(new HistoryEntry("user", "hi"), new HistoryEntry("assistant", "hello")),
                    store.history(SessionKey.of("s1"), 10));
            assertEquals(0, store.lastSequence());
            store.append(Fixtures.entry(1)).join();
            assertEquals(List.of(Fixtures.entry(1)), store.pending());
        }
        assertEquals(Migrations.LATEST, Fixtures.count(dir, "PRAGMA user_version"));
        assertEquals(1, Fixtures.count(dir, "SELECT count(*) FROM messages"));
        assertEquals(3, Fixtures.count(dir, "SELECT count(*) FROM sqlite_schema WHERE type = 'index'"
                + " AND name LIKE 'messages_%'"));
    }

    @Test
    void refusesANewerSchemaVersion_namingTheFile_andLeavesItAlone() throws Exception {
        try (Connection connection = Fixtures.raw(dir); Statement sql = connection.createStatement()) {
            sql.execute("PRAGMA application_id = " + Migrations.APPLICATION_ID);
            sql.execute("CREATE TABLE future_things (x)");
            sql.execute("PRAGMA user_version = 99");
        }
        byte[] before = Files.readAllBytes(file());
        StoreException e = assertThrows(StoreException.class, () -> SqliteStore.open(dir, Fixtures.options(clock)));
        assertTrue(e.getMessage().contains(file().toString()), e.getMessage());
        assertTrue(e.getMessage().contains("schema version 99"), e.getMessage());
        assertTrue(e.getMessage().contains("newer Laneway"), e.getMessage());
        assertArrayEquals(before, Files.readAllBytes(file()));
        assertEquals("delete", Fixtures.text(dir, "PRAGMA journal_mode"), "not even switched to WAL");
    }

    @Test
    void refusesAFileThatIsNotASqliteDatabase_namingTheFile_andLeavesItAlone() throws Exception {
        byte[] garbage = new byte[16 * 1024];
        new Random(7).nextBytes(garbage);
        Files.write(file(), garbage);
        StoreException e = assertThrows(StoreException.class, () -> SqliteStore.open(dir, Fixtures.options(clock)));
        assertTrue(e.getMessage().contains(file().toString()), e.getMessage());
        assertTrue(e.getMessage().contains("not a readable SQLite database"), e.getMessage());
        assertTrue(e.getMessage().contains("move it aside"), e.getMessage());
        assertArrayEquals(garbage, Files.readAllBytes(file()));
        // and the lock was released: once the file is moved aside, the store opens
        Files.move(file(), dir.resolve("laneway.db.broken"));
        SqliteStore.open(dir, Fixtures.options(clock)).close();
    }

    @Test
    void refusesAnotherProgramsSqliteDatabase() throws Exception {
        try (Connection connection = Fixtures.raw(dir); Statement sql = connection.createStatement()) {
            sql.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)");
            sql.execute("INSERT INTO customers (name) VALUES ('keep me')");
        }
        StoreException e = assertThrows(StoreException.class, () -> SqliteStore.open(dir, Fixtures.options(clock)));
        assertTrue(e.getMessage().contains(file().toString()), e.getMessage());
        assertTrue(e.getMessage().contains("not a Laneway store"), e.getMessage());
        assertEquals("keep me", Fixtures.text(dir, "SELECT name FROM customers"));
    }

    @Test
    void refusesASecondStoreOnTheSameDirectory_untilTheFirstCloses() {
        SqliteStore first = SqliteStore.open(dir, Fixtures.options(clock));
        StoreException e = assertThrows(StoreException.class, () -> SqliteStore.open(dir, Fixtures.options(clock)));
        assertTrue(e.getMessage().contains(file().toString()) && e.getMessage().contains("in use"), e.getMessage());
        first.close();
        SqliteStore.open(dir, Fixtures.options(clock)).close();
    }

    @Test
    void anEmptyFileIsANewStore() throws Exception {
        Files.createFile(file());
        try (SqliteStore store = SqliteStore.open(dir, Fixtures.options(clock))) {
            assertEquals(List.of(), store.pending());
        }
    }

    @Test
    void migrationsAreNumberedOneByOne() {
        for (int i = 0; i < Migrations.ALL.size(); i++) {
            assertEquals(i + 1, Migrations.ALL.get(i).version());
        }
    }
}
