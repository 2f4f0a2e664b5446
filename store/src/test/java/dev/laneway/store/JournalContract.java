package dev.laneway.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.Route;
import dev.laneway.core.store.JournalEntry;
import dev.laneway.core.store.LiveMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The journal's contract: entries, order, the answered ledger, dedupe keys, the sequence, retention. */
public abstract class JournalContract extends StoreContract {

    @Test
    void entriesRoundTripExactly_everyFieldNullsAttachmentsUnicode() {
        List<JournalEntry> written = List.of(Fixtures.everyField(1), Fixtures.sparse(2), Fixtures.entry(3));
        try (DurableStore store = open()) {
            for (JournalEntry entry : written) {
                store.append(entry).join();
            }
            assertEquals(written, store.pending());
        }
        try (DurableStore store = open()) {
            List<JournalEntry> read = store.pending();
            assertEquals(written, read);
            // records compare lists and instants by value; spot-check the tricky ones explicitly
            assertEquals("2026-02-28T23:59:59.123456789Z", read.get(0).message().receivedAt().toString());
            assertEquals(null, read.get(1).message().threadId());
            assertEquals(null, read.get(1).message().platformMessageId());
            assertEquals("me", read.get(1).message().senderName());
            assertEquals(List.of(), read.get(1).message().attachments());
            assertEquals(null, read.get(0).message().attachments().get(1).name());
            // a queued file keeps what refetching it needs across the restart (docs/behaviour.md §15.4)
            var photo = read.get(0).message().attachments().get(0);
            assertEquals("image/jpeg", photo.mediaType());
            assertEquals(48_213, photo.size());
            assertEquals("https://cdn.example/attachments/1/2/cat.jpg?ex=65f&is=65e&hm=abc", photo.ref());
            assertEquals(-1, read.get(0).message().attachments().get(1).size());
        }
    }

    @Test
    void theGatewaysAcceptedAtRoundTrips_independentlyOfTheMessagesReceivedAt() {
        JournalEntry base = Fixtures.entry(1);
        java.time.Instant accepted = base.message().receivedAt().plus(Duration.ofHours(2)).plusMillis(7);
        JournalEntry entry = new JournalEntry(1, base.session(), base.message(), base.text(), base.settings(),
                base.trusted(), accepted);
        try (DurableStore store = open()) {
            store.append(entry).join();
        }
        try (DurableStore store = open()) {
            assertEquals(accepted, store.pending().get(0).acceptedAt(), "the ttl after a restart counts from it");
            assertEquals(base.message().receivedAt(), store.pending().get(0).message().receivedAt());
        }
    }

    @Test
    void pendingIsInSequenceOrder_andExcludesSettledMessages() throws Exception {
        try (DurableStore store = open()) {
            List<CompletableFuture<Void>> appends = new ArrayList<>();
            for (long seq : new long[] {5, 2, 9, 1, 7, 3}) {
                appends.add(store.append(Fixtures.entry(seq)));
            }
            CompletableFuture.allOf(appends.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
            store.settled(9, true);
            store.settled(2, false);
            assertEquals(List.of(1L, 3L, 5L, 7L), store.pending().stream().map(JournalEntry::seq).toList());
        }
        try (DurableStore store = open()) {
            assertEquals(List.of(1L, 3L, 5L, 7L), store.pending().stream().map(JournalEntry::seq).toList());
        }
    }

    @Test
    void settledAnsweredKeepsADedupeRecord_unansweredIsDeleted() throws Exception {
        try (DurableStore store = open()) {
            store.append(Fixtures.entry(1)).join();
            store.append(Fixtures.entry(2)).join();
            assertTrue(store.seen(Fixtures.entry(1).messageKey()));
            assertTrue(store.seen(Fixtures.entry(2).messageKey()));
            store.settled(1, true);
            store.settled(2, false);
            assertTrue(store.seen(Fixtures.entry(1).messageKey()), "answered: a redelivery is recognised");
            assertFalse(store.seen(Fixtures.entry(2).messageKey()), "unanswered: a redelivery is a new message");
            assertEquals(List.of(), store.pending());
        }
        assertEquals(OptionalLong.of(Fixtures.T0.toEpochMilli()), subject.answeredAt(Fixtures.entry(1)));
        assertFalse(subject.hasRecord(Fixtures.entry(2)));
    }

    @Test
    void seenSurvivesReopen_pendingAndAnsweredOnly() {
        String answered = Fixtures.entry(1).messageKey();
        String pending = Fixtures.entry(2).messageKey();
        String dropped = Fixtures.entry(3).messageKey();
        try (DurableStore store = open()) {
            store.append(Fixtures.entry(1)).join();
            store.append(Fixtures.entry(2)).join();
            store.append(Fixtures.entry(3)).join();
            store.append(Fixtures.entry(4, "s", null)).join(); // no platform id: no key
            store.settled(1, true);
            store.settled(3, false);
        }
        try (DurableStore store = open()) {
            assertTrue(store.seen(answered));
            assertTrue(store.seen(pending));
            assertFalse(store.seen(dropped));
            assertFalse(store.seen(null));
            assertEquals(2, subject.knownKeyCount(store));
            // the key is the core's: channel, account, chat and platform id
            assertTrue(store.seen(JournalEntry.keyOf(Fixtures.entry(99, "other-session", "m1").message())));
        }
    }

    @Test
    void lastSequenceNeverGoesBack_evenWhenTheRowsAreGone() {
        try (DurableStore store = open()) {
            assertEquals(0, store.lastSequence());
            for (long seq = 1; seq <= 5; seq++) {
                store.append(Fixtures.entry(seq)).join();
            }
            assertEquals(5, store.lastSequence());
            for (long seq = 1; seq <= 5; seq++) {
                store.settled(seq, false);
            }
        }
        try (DurableStore store = open()) {
            assertEquals(List.of(), store.pending());
            assertEquals(5, store.lastSequence());
            store.append(Fixtures.entry(6)).join();
            store.settled(6, true);
        }
        clock.advance(Duration.ofDays(3)); // the answered record of 6 expires at the next open
        try (DurableStore store = open()) {
            store.flush();
            assertEquals(6, store.lastSequence());
        }
        try (DurableStore store = open()) {
            assertEquals(6, store.lastSequence());
        }
    }

    @Test
    void answeredRecordsExpireAfterTheRetention_inStorageAndInMemory() throws Exception {
        StoreOptions options = Fixtures.options(clock).withAnsweredRetention(Duration.ofHours(24))
                .withExpiryInterval(Duration.ofMinutes(1));
        String k1 = Fixtures.entry(1).messageKey();
        String k2 = Fixtures.entry(2).messageKey();
        String k3 = Fixtures.entry(3).messageKey();
        try (DurableStore store = open(options)) {
            store.append(Fixtures.entry(1)).join();
            store.append(Fixtures.entry(2)).join();
            store.append(Fixtures.entry(3)).join();
            store.settled(1, true);
            clock.advance(Duration.ofHours(1));
            store.settled(2, true);
            store.flush();

            clock.advance(Duration.ofHours(23).plusMinutes(1)); // 1 is 24h01 old, 2 is 23h01 old
            store.flush();
            assertFalse(store.seen(k1));
            assertTrue(store.seen(k2));
            assertTrue(store.seen(k3));

            clock.advance(Duration.ofHours(1));
            store.flush();
            assertFalse(store.seen(k2));
            assertTrue(store.seen(k3), "pending messages never expire here (the gateway drops them by TTL)");
            assertEquals(1, subject.knownKeyCount(store));
        }
        assertEquals(1, subject.journalRecordCount(), "only the pending message is left");
        assertTrue(subject.hasRecord(Fixtures.entry(3)));
        assertEquals(OptionalLong.empty(), subject.answeredAt(Fixtures.entry(1)));
        assertEquals(OptionalLong.empty(), subject.answeredAt(Fixtures.entry(2)));
    }

    @Test
    void answeredRecordsOlderThanTheRetentionAreNotLoaded() {
        String key = Fixtures.entry(1).messageKey();
        try (DurableStore store = open()) {
            store.append(Fixtures.entry(1)).join();
            store.settled(1, true);
        }
        clock.advance(Duration.ofHours(25));
        try (DurableStore store = open()) {
            assertFalse(store.seen(key));
        }
    }

    @Test
    void steadyTrafficKeepsTheStoreBounded() throws Exception {
        StoreOptions options = Fixtures.options(clock).withAnsweredRetention(Duration.ofMinutes(5))
                .withExpiryInterval(Duration.ofMinutes(1)).withMaxHistoryPerSession(10);
        long seq = 0;
        try (DurableStore store = open(options)) {
            for (int minute = 0; minute < 30; minute++) {
                for (int i = 0; i < 100; i++) {
                    seq++;
                    store.append(Fixtures.entry(seq, "s" + (seq % 7), "p" + seq)).join();
                    store.appendHistory(dev.laneway.core.SessionKey.of("s" + (seq % 7)),
                            List.of(new dev.laneway.core.store.HistoryEntry("user", "m" + seq)));
                    store.settled(seq, seq % 3 != 0);
                }
                clock.advance(Duration.ofMinutes(1));
                store.flush();
                long known = subject.knownKeyCount(store);
                assertTrue(known <= 7 * 100, "seen keys bounded, was " + known);
            }
        }
        long records = subject.journalRecordCount();
        assertTrue(records <= 7 * 100, "answered records bounded by the retention, was " + records);
        assertEquals(70, subject.totalHistoryCount());
    }

    @Test
    void aFailedAppendFailsItsFutureAlone_andIsForgotten() throws Exception {
        try (DurableStore store = open()) {
            store.append(Fixtures.entry(1)).join();
            CountDownLatch release = new CountDownLatch(1);
            subject.holdWriter(store, release);
            CompletableFuture<Void> two = store.append(Fixtures.entry(2));
            CompletableFuture<Void> duplicate = store.append(Fixtures.entry(1, "x", "another-id"));
            CompletableFuture<Void> three = store.append(Fixtures.entry(3));
            assertTrue(store.seen(Fixtures.entry(1, "x", "another-id").messageKey()));
            release.countDown();
            two.get(10, TimeUnit.SECONDS);
            three.get(10, TimeUnit.SECONDS);
            ExecutionException e = assertThrows(ExecutionException.class, () -> duplicate.get(10, TimeUnit.SECONDS));
            assertTrue(e.getCause() instanceof StoreException, e.toString());
            assertTrue(e.getCause().getMessage().contains(subject.name()), e.getCause().getMessage());
            assertFalse(store.seen(Fixtures.entry(1, "x", "another-id").messageKey()));
            assertEquals(List.of(1L, 2L, 3L), store.pending().stream().map(JournalEntry::seq).toList());
            assertEquals(Fixtures.entry(1), store.pending().get(0), "the first entry with that number is kept");
        }
    }

    @Test
    void closeIsIdempotent_andAppendsAfterCloseFail() throws Exception {
        DurableStore store = open();
        store.append(Fixtures.entry(1)).join();
        store.settled(1, true); // not awaited: close commits it
        store.close();
        store.close();
        CompletableFuture<Void> late = store.append(Fixtures.entry(2));
        assertTrue(late.isCompletedExceptionally());
        assertFalse(store.seen(Fixtures.entry(2).messageKey()));
        store.settled(2, true); // logged, not thrown
        assertEquals(OptionalLong.of(Fixtures.T0.toEpochMilli()), subject.answeredAt(Fixtures.entry(1)));
        assertFalse(store.isOpen());
    }

    private static LiveMessage live(long seq, String id, String text) {
        return new LiveMessage(seq, new Route("telegram", "default", "chat-" + seq, seq == 1 ? null : "thread-7", "m9"),
                id, text);
    }

    @Test
    void liveMessages_areKeptPerMessageId_surviveAReopen_andGoWhenTheirMessageEnds() {
        try (DurableStore store = open()) {
            for (long seq = 1; seq <= 3; seq++) {
                store.append(Fixtures.entry(seq)).join();
            }
            store.liveShown(live(1, "p1", "Hel"));
            store.liveShown(live(1, "p1", "Hello, wörld 🔧")); // replaces what p1 showed
            store.liveShown(live(2, "p2", "Second"));
            store.liveShown(live(3, "p3", "Third"));
            store.liveShown(live(3, "p4", "Third, next message"));
            store.liveGone(3, "p3");
            assertEquals(List.of(live(1, "p1", "Hello, wörld 🔧"), live(2, "p2", "Second"),
                    live(3, "p4", "Third, next message")), store.liveMessages(List.of(1L, 2L, 3L)));
            assertEquals(null, store.liveMessages(List.of(1L)).get(0).route().threadId());
            assertEquals(null, store.liveMessages(List.of(2L)).get(0).route().replyToMessageId(), "a reply-to is not kept");
            assertEquals(List.of(live(2, "p2", "Second")), store.liveMessages(List.of(2L)), "only those asked for");
        }
        try (DurableStore store = open()) {
            assertEquals(3, store.liveMessages(List.of(1L, 2L, 3L)).size(), "what a restart marks survives it");
            store.settled(1, true);
            store.settled(2, false);
            assertEquals(List.of(live(3, "p4", "Third, next message")), store.liveMessages(List.of(1L, 2L, 3L)),
                    "an ended message, answered or not, has nothing left to mark");
        }
        try (DurableStore store = open()) {
            assertEquals(List.of(live(3, "p4", "Third, next message")), store.liveMessages(List.of(1L, 2L, 3L)));
        }
    }

    @Test
    void aLiveMessageRecordedAfterItsMessageEnded_orForNoMessage_isIgnored() {
        try (DurableStore store = open()) {
            store.append(Fixtures.entry(1)).join();
            store.settled(1, true);
            store.liveShown(live(1, "p1", "late"));
            store.liveShown(live(2, "p2", "never journaled"));
            assertEquals(List.of(), store.liveMessages(List.of(1L, 2L)));
            assertEquals(List.of(), store.liveMessages(List.of()));
        }
    }
}
