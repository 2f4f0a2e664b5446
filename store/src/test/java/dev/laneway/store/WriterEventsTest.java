package dev.laneway.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.laneway.core.testing.ManualTime;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the store hears from its writer ({@code StoreWriter.Events}): every committed or failed write,
 * on the writer thread, before the write's future completes. The store updates its seen-key memory
 * there, so that memory changes on one thread, and a caller that waited for a write finds it done.
 */
class WriterEventsTest {

    @TempDir
    Path dir;

    private final ManualTime clock = Fixtures.clock();
    private final List<String> heard = new CopyOnWriteArrayList<>();

    private StoreWriter writer() throws Exception {
        Path file = dir.resolve(SqliteStore.FILE_NAME);
        StoreOptions options = Fixtures.options(clock);
        Connection connection = Sqlite.open(file, options);
        int from = Migrations.check(connection, file);
        Sqlite.configureWriter(connection, options);
        Migrations.migrate(connection, from);
        StoreWriter writer = new StoreWriter(file, options, connection, 0, new StoreWriter.Events() {
            @Override
            public void committed(WriteOp op) {
                heard.add(Thread.currentThread().getName() + ": committed " + op.getClass().getSimpleName());
            }

            @Override
            public void failed(WriteOp op, Throwable error) {
                heard.add(Thread.currentThread().getName() + ": failed " + op.getClass().getSimpleName());
            }

            @Override
            public void expired(List<WriteStatements.Expired> rows) {
            }
        });
        writer.start();
        return writer;
    }

    @Test
    void everyWriteIsReportedOnTheWriterThread_beforeItsFutureCompletes() throws Exception {
        try (StoreWriter writer = writer()) {
            writer.submit(new WriteOp.Append(Fixtures.entry(1), clock.millis())).join();
            assertEquals(List.of("laneway-store-writer: committed Append"), heard, "heard before join returned");

            writer.submit(new WriteOp.Settle(1, true, clock.millis(), Fixtures.entry(1).messageKey())).join();
            assertEquals("laneway-store-writer: committed Settle", heard.get(1));

            var duplicate = writer.submit(new WriteOp.Append(Fixtures.entry(1), clock.millis()));
            assertThrows(CompletionException.class, duplicate::join);
            assertEquals("laneway-store-writer: failed Append", heard.get(2));

            writer.submit(new WriteOp.Flush()).join();
            assertEquals(3, heard.size(), "a flush writes nothing and is not reported");
        }
    }
}
