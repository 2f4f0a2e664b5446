package dev.laneway.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import dev.laneway.core.DropPolicy;
import dev.laneway.core.QueueMode;
import dev.laneway.core.QueueSettings;
import dev.laneway.core.command.CommandHandler;
import dev.laneway.core.store.InMemoryJournal;
import dev.laneway.core.testing.ForwardingJournal;
import dev.laneway.core.testing.GatewayHarness;
import dev.laneway.core.testing.LogCapture;
import dev.laneway.core.testing.ManualTime;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A full or failing store does not double answers: an "answered" record the journal refuses is kept
 * in memory and written again, with backoff, once the journal takes it; one ERROR line per outage.
 */
class JournalRecordFailureTest {

    private final InMemoryJournal disk = new InMemoryJournal();
    private final AtomicBoolean full = new AtomicBoolean();
    private final AtomicInteger attempts = new AtomicInteger();
    private final ForwardingJournal journal = new ForwardingJournal(disk) {
        @Override
        public void settled(long seq, boolean answered) {
            attempts.incrementAndGet();
            if (full.get()) {
                throw new IllegalStateException("SQLITE_FULL: database or disk is full");
            }
            super.settled(seq, answered);
        }
    };

    private GatewayHarness start(ManualTime time) {
        QueueSettings followup = new QueueSettings(QueueMode.FOLLOWUP, Duration.ZERO, 20, DropPolicy.SUMMARIZE);
        return new GatewayHarness(s -> s.queueDefaults(followup), CommandHandler.NONE, journal, time);
    }

    @Test
    void answeredRecordsRefusedWhileTheDiskIsFull_areWrittenOnceItHasRoom_andNotAnsweredAgainAfterARestart() {
        try (LogCapture log = LogCapture.of(JournalRecords.class)) {
            GatewayHarness before = start(new ManualTime());
            full.set(true);
            before.dm("one");
            before.dm("two");
            before.dm("three");
            before.agent.run(0).complete("1");
            before.agent.run(1).complete("2");
            before.agent.run(2).complete("3");
            assertEquals(List.of("1", "2", "3"), before.channel.texts());
            assertEquals(3, disk.pending().size(), "nothing could be recorded yet");
            assertEquals(1, log.lines().stream().filter(line -> line.level() == Level.ERROR).count(),
                    "one ERROR line for the outage, not one per record: " + log.lines());

            before.advance(Duration.ofSeconds(10)); // retries after 1 s, 2 s, 4 s: all refused
            assertEquals(3, disk.pending().size());
            assertEquals(1, log.lines().stream().filter(line -> line.level() == Level.ERROR).count(),
                    "retries do not log at ERROR");
            int beforeRoom = attempts.get();

            full.set(false); // room again: the next retry (after 8 s) writes all three
            before.advance(Duration.ofSeconds(8));
            assertEquals(List.of(), disk.pending());
            assertEquals(beforeRoom + 3, attempts.get(), "each kept record written once more");
            assertTrue(log.lines().stream().anyMatch(line -> line.level() == Level.INFO
                    && line.mentions("every kept record is written")), log.lines().toString());

            GatewayHarness after = start(new ManualTime(before.time.instant().plusSeconds(30)));
            assertTrue(after.agent.runs().isEmpty(), "none of them is answered a second time");
        }
    }

    @Test
    void theRetryBackoffDoubles_upToOneMinute() {
        GatewayHarness h = start(new ManualTime());
        full.set(true);
        h.dm("one");
        h.agent.run(0).complete("1");
        assertEquals(1, attempts.get());
        long[] expectedGaps = {1, 2, 4, 8, 16, 32, 60, 60};
        for (long gap : expectedGaps) {
            int tried = attempts.get();
            h.advance(Duration.ofSeconds(gap).minusMillis(1));
            assertEquals(tried, attempts.get(), "no retry before " + gap + " s");
            h.advanceMillis(1);
            assertEquals(tried + 1, attempts.get(), "a retry after " + gap + " s");
        }
        full.set(false);
        h.advance(Duration.ofSeconds(60));
        assertEquals(List.of(), disk.pending());
        int done = attempts.get();
        h.advance(Duration.ofMinutes(10));
        assertEquals(done, attempts.get(), "no retry once written");
    }

    @Test
    void theRecordOfAMessageThatEndedWithoutAnAnswer_isKeptAndRetriedToo() {
        GatewayHarness h = start(new ManualTime());
        h.dm("running");
        h.dm("queued");
        full.set(true);
        assertEquals(1, h.gateway.stop(dev.laneway.core.SessionKey.of("test:dm:user")), "the queued one is stopped");
        assertEquals(2, disk.pending().size(), "neither end could be recorded");
        full.set(false);
        h.advance(Duration.ofSeconds(1));
        assertEquals(List.of(), disk.pending());
    }
}
