package dev.laneway.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** MONITOR lines as Redis 7 writes them, counted as round trips (docs/architecture.md §10). */
class RoundTripCounterTest {

    private final RoundTripCounter counter = new RoundTripCounter(Map.of("abc123", "append"));

    @Test
    void aTransactionIsOneRoundTrip_itsQueuedCommandsAndScriptCallsCountedApart() {
        counter.take("1700000000.000001 [0 127.0.0.1:5001] \"MULTI\"");
        counter.take("1700000000.000002 [0 127.0.0.1:5001] \"evalsha\" \"abc123\" \"6\" \"k\"");
        counter.take("1700000000.000003 [0 lua] \"HSETNX\" \"k\" \"1\" \"{\\\"a\\\":1}\"");
        counter.take("1700000000.000004 [0 127.0.0.1:5001] \"evalsha\" \"abc123\" \"6\" \"k\"");
        counter.take("1700000000.000005 [0 127.0.0.1:5002] \"INCR\" \"seq\""); // another connection, meanwhile
        counter.take("1700000000.000006 [0 127.0.0.1:5001] \"EXEC\"");

        RoundTripCounter.Counts counts = counter.counts();
        assertEquals(Map.of(RoundTripCounter.TRANSACTION, 1L, "INCR", 1L), counts.roundTrips());
        assertEquals(Map.of("script append", 2L), counts.inTransactions());
        assertEquals(1, counts.scriptCalls());
        assertEquals(2, counts.total());
    }

    @Test
    void anUnknownScriptIsNamedByItsShaPrefix_andExcludedConnectionsAreNotCounted() {
        counter.exclude("127.0.0.1:6000");
        counter.take("1.0 [0 127.0.0.1:5001] \"evalsha\" \"ffffffff00001111\" \"1\" \"k\"");
        counter.take("1.1 [0 127.0.0.1:6000] \"INFO\" \"memory\"");
        List<String> words = counter.take("1.2 [0 127.0.0.1:6000] \"ECHO\" \"mark-1\"");

        assertEquals(List.of("ECHO", "mark-1"), words, "the caller still sees its own marker");
        assertEquals(Map.of("script ffffffff", 1L), counter.counts().roundTrips());
    }

    @Test
    void phasesAreDifferences() {
        counter.take("1.0 [0 127.0.0.1:5001] \"HGET\" \"o\" \"s\"");
        RoundTripCounter.Counts first = counter.counts();
        counter.take("1.1 [0 127.0.0.1:5001] \"HGET\" \"o\" \"s\"");
        counter.take("1.2 [0 127.0.0.1:5001] \"ZREM\" \"p\" \"m\"");

        assertEquals(Map.of("HGET", 1L, "ZREM", 1L), counter.counts().minus(first).roundTrips());
    }
}
