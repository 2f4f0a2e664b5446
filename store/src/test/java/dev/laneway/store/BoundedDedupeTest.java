package dev.laneway.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.testing.ManualTime;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The heap keeps a bounded number of answered keys, yet an answered message is never answered again
 * while a redelivery falls within the retention: keys beyond the bound are found in the database.
 */
class BoundedDedupeTest {

    private static final int IN_HEAP = 3;

    @TempDir
    Path dir;

    private final ManualTime clock = Fixtures.clock();

    private SqliteStore open() {
        return SqliteStore.open(dir, Fixtures.options(clock).withMaxAnsweredKeysInMemory(IN_HEAP)
                .withAnsweredRetention(Duration.ofHours(24)).withExpiryInterval(Duration.ofMinutes(1)));
    }

    /** Appends and answers {@code count} messages, one minute apart; returns their keys. */
    private List<String> answer(SqliteStore store, int count) {
        List<String> keys = new ArrayList<>();
        for (long seq = 1; seq <= count; seq++) {
            store.append(Fixtures.entry(seq)).join();
            store.settled(seq, true);
            keys.add(Fixtures.entry(seq).messageKey());
            clock.advance(Duration.ofMinutes(1));
        }
        store.flush();
        return keys;
    }

    @Test
    void answeredMessagesBeyondTheHeapBound_areStillRecognised_andHeapStaysBounded() {
        try (SqliteStore store = open()) {
            List<String> keys = answer(store, 10);

            assertTrue(store.seenKeyCount() <= IN_HEAP, "keys in heap: " + store.seenKeyCount());
            keys.forEach(key -> assertTrue(store.seen(key), key));
            assertFalse(store.seen(Fixtures.entry(11).messageKey()));
        }
    }

    @Test
    void afterARestart_theBoundHolds_andEveryAnsweredMessageIsStillRecognised() {
        List<String> keys;
        try (SqliteStore store = open()) {
            keys = answer(store, 10);
        }
        try (SqliteStore store = open()) {
            assertEquals(IN_HEAP, store.seenKeyCount());
            keys.forEach(key -> assertTrue(store.seen(key), key));
        }
    }

    @Test
    void onceTheRetentionHasPassed_evictedKeysAreForgotten_andTheDiskIsNoLongerAsked() {
        try (SqliteStore store = open()) {
            List<String> keys = answer(store, 10);

            clock.advance(Duration.ofHours(25));
            store.flush();

            keys.forEach(key -> assertFalse(store.seen(key), key));
            long lookups = store.diskLookups();
            assertFalse(store.seen("telegram|default|c1|never-sent"));
            assertEquals(lookups, store.diskLookups(), "past every evicted record's retention, memory is enough");
        }
    }

    @Test
    void withinTheBound_newMessagesAreCheckedFromMemoryOnly() {
        try (SqliteStore store = open()) {
            answer(store, IN_HEAP);

            assertFalse(store.seen(Fixtures.entry(99).messageKey()));
            assertEquals(0, store.diskLookups());
        }
    }

    @Test
    void pendingMessages_areNeverEvicted() {
        try (SqliteStore store = open()) {
            for (long seq = 1; seq <= 10; seq++) {
                store.append(Fixtures.entry(seq)).join();
            }
            store.flush();

            assertEquals(10, store.seenKeyCount());
            assertEquals(0, store.diskLookups());
        }
    }

    @Test
    void anAnsweredMessageWhoseEndCouldNotBeRecorded_staysKnown_butIsEvictableLikeAnyOther() throws Exception {
        try (SqliteStore store = open()) {
            String lost = Fixtures.entry(1).messageKey();
            store.append(Fixtures.entry(1)).join();
            try (Connection raw = Fixtures.raw(dir); Statement statement = raw.createStatement()) {
                statement.execute("CREATE TRIGGER no_settle BEFORE UPDATE ON messages WHEN OLD.seq = 1"
                        + " BEGIN SELECT RAISE(ABORT, 'disk says no'); END");
            }
            store.settled(1, true);
            store.flush();
            assertEquals("pending", Fixtures.text(dir, "SELECT state FROM messages WHERE seq = 1"), "the write failed");
            assertTrue(store.seen(lost), "still known: a redelivery now is not answered twice");

            for (long seq = 2; seq <= IN_HEAP + 1; seq++) {
                store.append(Fixtures.entry(seq)).join();
                store.settled(seq, true);
                clock.advance(Duration.ofMinutes(1));
            }
            store.flush();
            assertEquals(IN_HEAP, store.seenKeyCount(), "the unrecorded key was evicted: failures cannot fill the heap");
            assertFalse(store.seen(lost), "the disk holds no answered record for it (it runs again after a restart)");
        }
    }
}
