package dev.laneway.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import dev.laneway.core.testing.LogCapture;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A record of an ended message that the storage refuses (a full disk, a Redis out of memory) is not
 * dropped: the writer keeps it, retries it with backoff, and writes it once the storage takes it, so
 * a restart after that answers nothing twice ({@link StoreUnderTest#refuseWrites}).
 */
public abstract class KeptSettleContract extends StoreContract {

    @Test
    void refusedRecords_areKeptAndWrittenOnceTheStorageTakesThem_withOneErrorLine() throws Exception {
        String answeredKey = Fixtures.entry(1).messageKey();
        try (LogCapture log = LogCapture.of(subject.writerClass()); DurableStore store = open()) {
            for (long seq = 1; seq <= 3; seq++) {
                store.append(Fixtures.entry(seq)).join();
            }
            subject.refuseWrites(true);
            store.settled(1, true);
            store.settled(2, false);
            store.settled(3, true);
            store.flush();
            assertEquals(3, subject.pendingRecordCount(), "nothing could be written");
            assertTrue(store.seen(answeredKey), "the answered message is still known, so a redelivery is a duplicate");
            assertEquals(1, log.lines().stream().filter(line -> line.level() == Level.ERROR).count(), log.lines().toString());

            clock.advance(Duration.ofSeconds(1));
            store.flush(); // the first retry is due: refused again, the next one waits 2 s
            assertEquals(3, subject.pendingRecordCount());
            assertEquals(1, log.lines().stream().filter(line -> line.level() == Level.ERROR).count(),
                    "a failed retry logs no ERROR line");

            subject.refuseWrites(false);
            clock.advance(Duration.ofSeconds(1));
            store.flush();
            assertEquals(3, subject.pendingRecordCount(), "the second retry is not due before 2 s");
            clock.advance(Duration.ofSeconds(1));
            store.flush();
            assertEquals(0, subject.pendingRecordCount(), "all three written in the retry");
            assertTrue(subject.answeredAt(Fixtures.entry(3)).isPresent());
            assertTrue(!subject.hasRecord(Fixtures.entry(2)), "the dropped one's record is gone");
            assertTrue(log.lines().stream().anyMatch(line -> line.level() == Level.INFO && line.mentions("written")),
                    log.lines().toString());
        }
        try (DurableStore store = open()) {
            assertEquals(List.of(), store.pending(), "nothing runs again after the restart");
            assertTrue(store.seen(answeredKey));
        }
    }

    @Test
    void recordsStillRefusedAtClose_failThere_withOneErrorLine_andTheirMessagesStayPending() throws Exception {
        try (LogCapture log = LogCapture.of(subject.writerClass())) {
            try (DurableStore store = open()) {
                store.append(Fixtures.entry(1)).join();
                store.append(Fixtures.entry(2)).join();
                subject.refuseWrites(true);
                store.settled(1, true);
                store.settled(2, true);
                store.flush();
            }
            assertEquals(2, log.lines().stream().filter(line -> line.level() == Level.ERROR).count(),
                    "one when the outage began, one at close: " + log.lines());
            assertTrue(log.lines().get(log.lines().size() - 1).mentions("run again after the restart"));
        }
        subject.refuseWrites(false);
        try (DurableStore store = open()) {
            assertEquals(2, store.pending().size());
        }
    }
}
