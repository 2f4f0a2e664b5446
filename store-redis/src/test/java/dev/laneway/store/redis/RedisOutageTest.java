package dev.laneway.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import dev.laneway.core.store.JournalEntry;
import dev.laneway.core.testing.LogCapture;
import dev.laneway.core.testing.ManualTime;
import dev.laneway.store.Fixtures;
import dev.laneway.store.StoreException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * Redis lost while the store runs: appends fail (the gateway refuses those messages, never
 * accepted-then-lost), records of ended messages are kept and written once Redis is back, one ERROR
 * line when the outage begins and one INFO line when Redis answers again. The server keeps an
 * append-only file, so its restart keeps what it acknowledged, as a production Redis should.
 */
class RedisOutageTest {

    @Test
    void appendsFailWhileRedisIsDown_endsAreKeptAndWrittenWhenItIsBack() {
        ManualTime clock = Fixtures.clock();
        try (RedisServer server = RedisServer.start("--appendonly", "yes", "--appendfsync", "always");
             LogCapture log = LogCapture.of(RedisWriter.class)) {
            RedisTarget target = RedisTarget.of(server.url(), "support");
            try (RedisStore store = RedisStore.open(target, Fixtures.options(clock))) {
                store.append(Fixtures.entry(1)).join();
                store.append(Fixtures.entry(2)).join();

                server.stop();
                store.settled(1, true);
                store.flush();
                assertTrue(store.seen(Fixtures.entry(1).messageKey()), "kept: a redelivery is still a duplicate");
                CompletionException e = assertThrows(CompletionException.class, () -> store.append(Fixtures.entry(3)).join());
                assertTrue(e.getCause() instanceof StoreException, e.toString());
                assertThrows(StoreException.class, () -> store.seen("telegram\u0000default\u0000c1\u0000new"),
                        "a read fails too: the gateway refuses the message rather than risk answering it twice");
                assertEquals(1, log.lines().stream().filter(line -> line.level() == Level.ERROR).count(), log.lines().toString());

                server.restart();
                clock.advance(Duration.ofSeconds(1));
                store.flush(); // the kept record is due: written on a new connection
                assertTrue(log.lines().stream().anyMatch(line -> line.level() == Level.INFO && line.mentions("answers again")),
                        log.lines().toString());
                assertEquals(List.of(2L), store.pending().stream().map(JournalEntry::seq).toList());
                store.append(Fixtures.entry(4)).join();
                assertTrue(store.seen(Fixtures.entry(1).messageKey()));
                assertEquals(1, log.lines().stream().filter(line -> line.level() == Level.ERROR).count(),
                        "one outage, one ERROR line: " + log.lines());
            }
            try (RedisStore store = RedisStore.open(target, Fixtures.options(clock))) {
                assertEquals(List.of(2L, 4L), store.pending().stream().map(JournalEntry::seq).toList());
                assertEquals(4, store.lastSequence());
            }
        }
    }

    @Test
    void aRedisThatComesBackEmpty_isSaidLoudly_andTheFleetIsClaimedAgain() {
        try (RedisServer server = RedisServer.start(); LogCapture log = LogCapture.of(RedisStore.class)) {
            RedisTarget target = RedisTarget.of(server.url(), "support");
            try (RedisStore store = RedisStore.open(target, Fixtures.options(Fixtures.clock()))) {
                store.append(Fixtures.entry(1)).join();
                server.restart(); // nothing persisted: the queued message is gone
                assertThrows(CompletionException.class, () -> store.append(Fixtures.entry(2)).join(),
                        "the batch on the lost connection fails");
                store.append(Fixtures.entry(3)).join();
                assertTrue(log.lines().stream().anyMatch(line -> line.level() == Level.ERROR
                        && line.mentions("without this fleet's data")), log.lines().toString());
                assertEquals(List.of(3L), store.pending().stream().map(JournalEntry::seq).toList());
            }
        }
    }
}
