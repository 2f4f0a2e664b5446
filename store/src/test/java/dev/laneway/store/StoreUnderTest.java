package dev.laneway.store;

import dev.laneway.core.SessionKey;
import dev.laneway.core.store.JournalEntry;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;

/**
 * One store implementation as the store contract suite ({@link StoreContract}) sees it: how to open
 * it on this test's data (the same data on every call, so a reopen is a restart), its writer's test
 * hold, and raw looks at what it keeps, taken beside the store (another connection), so the suite
 * checks what is really written, not only what the store answers.
 */
public interface StoreUnderTest extends AutoCloseable {

    /** Opens the store on this test's data; every call sees what earlier ones wrote. */
    DurableStore open(StoreOptions options);

    /** The store's writer waits on {@code release} before it takes the next write. */
    void holdWriter(DurableStore store, CountDownLatch release);

    /** What the store's errors name: the database file's name, the Redis URL. */
    String name();

    /** How many message keys the store knows: pending ones and answered ones within the retention. */
    long knownKeyCount(DurableStore store);

    /** When the answered record of this entry was written (epoch ms), empty when there is none. */
    OptionalLong answeredAt(JournalEntry entry);

    /** Whether the journal holds any record of this entry (pending or answered). */
    boolean hasRecord(JournalEntry entry);

    /** Records in the journal: pending and answered. */
    long journalRecordCount();

    /** Pending records in the journal. */
    long pendingRecordCount();

    /** History entries stored for one session. */
    long historyCount(SessionKey session);

    /** History entries stored for all sessions. */
    long totalHistoryCount();

    /** Whether a fire of this job is recorded (read beside the store). */
    boolean fireRecorded(String jobId);

    /**
     * Makes the storage refuse (true) or take again (false) the writes that end messages, as a full
     * disk or a Redis out of memory does.
     */
    void refuseWrites(boolean refuse);

    /** The class whose logger reports the writer's outages. */
    Class<?> writerClass();

    @Override
    default void close() {
    }
}
