package dev.laneway.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueOverride;
import dev.laneway.core.SessionKey;
import dev.laneway.core.store.HistoryEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The session state's contract: overrides, history and its trimming, scheduled fires, across reopens. */
public abstract class SessionStateContract extends StoreContract {

    private static final SessionKey A = SessionKey.of("telegram:dm:ada");
    private static final SessionKey B = SessionKey.of("discord:guild/1:thread-2");

    @Test
    void overridesRoundTripAcrossReopen_everyFieldAndPartial() {
        QueueOverride full = new QueueOverride(QueueMode.STEER_BACKLOG, Duration.ofMillis(2500), 12, DropPolicy.SUMMARIZE);
        QueueOverride partial = new QueueOverride(null, Duration.ZERO, null, DropPolicy.OLD);
        try (DurableStore store = open()) {
            store.setQueueOverride(A, full);
            store.setQueueOverride(B, QueueOverride.mode(QueueMode.INTERRUPT));
            store.setQueueOverride(B, partial); // replaces, does not merge
            assertEquals(Optional.of(full), store.queueOverride(A));
            assertEquals(Optional.of(partial), store.queueOverride(B));
        }
        try (DurableStore store = open()) {
            assertEquals(Optional.of(full), store.queueOverride(A));
            assertEquals(Optional.of(partial), store.queueOverride(B));
            assertEquals(Optional.empty(), store.queueOverride(SessionKey.of("nobody")));
            store.setQueueOverride(A, QueueOverride.NONE); // empty removes
            store.setQueueOverride(B, null);
            assertEquals(Optional.empty(), store.queueOverride(A));
        }
        try (DurableStore store = open()) {
            assertEquals(Optional.empty(), store.queueOverride(A));
            assertEquals(Optional.empty(), store.queueOverride(B));
        }
    }

    @Test
    void everyQueueModeAndDropPolicyRoundTrips() {
        try (DurableStore store = open()) {
            for (QueueMode mode : QueueMode.values()) {
                for (DropPolicy drop : DropPolicy.values()) {
                    store.setQueueOverride(SessionKey.of(mode + "/" + drop), new QueueOverride(mode, null, 3, drop));
                }
            }
        }
        try (DurableStore store = open()) {
            for (QueueMode mode : QueueMode.values()) {
                for (DropPolicy drop : DropPolicy.values()) {
                    assertEquals(Optional.of(new QueueOverride(mode, null, 3, drop)),
                            store.queueOverride(SessionKey.of(mode + "/" + drop)));
                }
            }
        }
    }

    @Test
    void historyRoundTripsOldestFirst_withLimit_andReadsItsOwnWrites() {
        try (DurableStore store = open()) {
            store.appendHistory(A, List.of(new HistoryEntry("user", "héllo 👋"), new HistoryEntry("assistant", "hi\nthere")));
            store.appendHistory(A, List.of(new HistoryEntry("user", "日本語")));
            store.appendHistory(B, List.of(new HistoryEntry("user", "other session")));
            // not flushed: history() waits for this session's queued writes
            assertEquals(List.of(new HistoryEntry("user", "héllo 👋"), new HistoryEntry("assistant", "hi\nthere"),
                    new HistoryEntry("user", "日本語")), store.history(A, 10));
            assertEquals(List.of(new HistoryEntry("assistant", "hi\nthere"), new HistoryEntry("user", "日本語")),
                    store.history(A, 2));
            assertEquals(List.of(), store.history(A, 0));
            assertEquals(List.of(), store.history(SessionKey.of("nobody"), 5));
        }
        try (DurableStore store = open()) {
            assertEquals(3, store.history(A, 100).size());
            assertEquals(List.of(new HistoryEntry("user", "other session")), store.history(B, 100));
            store.clearHistory(A);
            assertEquals(List.of(), store.history(A, 100));
            assertEquals(1, store.history(B, 100).size());
        }
        try (DurableStore store = open()) {
            assertEquals(List.of(), store.history(A, 100));
        }
    }

    @Test
    void historyIsTrimmedPerSessionOnAppend() throws Exception {
        try (DurableStore store = open(Fixtures.options(clock).withMaxHistoryPerSession(5))) {
            List<HistoryEntry> expected = new ArrayList<>();
            for (int i = 0; i < 23; i++) {
                HistoryEntry entry = new HistoryEntry(i % 2 == 0 ? "user" : "assistant", "turn " + i);
                store.appendHistory(A, List.of(entry));
                expected.add(entry);
            }
            store.appendHistory(B, List.of(new HistoryEntry("user", "b1"), new HistoryEntry("user", "b2")));
            // one append larger than the cap keeps its newest entries
            List<HistoryEntry> burst = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                burst.add(new HistoryEntry("user", "burst " + i));
            }
            SessionKey c = SessionKey.of("c");
            store.appendHistory(c, burst);
            assertEquals(expected.subList(18, 23), store.history(A, 100));
            assertEquals(2, store.history(B, 100).size());
            assertEquals(burst.subList(3, 8), store.history(c, 100));
        }
        assertEquals(5, subject.historyCount(A));
        assertEquals(12, subject.totalHistoryCount());
    }

    @Test
    void writesAfterCloseFailClearly() {
        DurableStore store = open();
        store.close();
        StoreException e = assertThrows(StoreException.class, () -> store.appendHistory(A, List.of(new HistoryEntry("user", "x"))));
        assertTrue(e.getMessage().contains(subject.name()), e.getMessage());
        assertThrows(StoreException.class, () -> store.setQueueOverride(A, QueueOverride.mode(QueueMode.STEER)));
        assertThrows(StoreException.class, () -> store.history(A, 3));
    }

    @Test
    void aRecordedFireSurvivesAReopen_andIsWrittenWhenRecordFireReturns() {
        Instant at = Instant.parse("2026-03-02T07:00:00.5Z");
        try (DurableStore store = open()) {
            store.recordFire("morning", at);
            // read beside the store while it is still open: the fire is written
            assertTrue(subject.fireRecorded("morning"));
        }
        try (DurableStore store = open()) {
            assertEquals(Optional.of(at), store.lastFire("morning"));
        }
    }

    @Test
    void recordingAFireAfterCloseFailsClearly() {
        DurableStore store = open();
        store.close();
        StoreException e = assertThrows(StoreException.class, () -> store.recordFire("morning", Fixtures.T0));
        assertEquals(true, e.getMessage().contains("closed"), e.getMessage());
    }
}
