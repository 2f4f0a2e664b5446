package dev.laneway.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.core.store.JournalEntry;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A process killed with SIGKILL in the middle of appending loses no append whose future completed. */
class KillNineTest {

    @TempDir
    Path dir;

    @Test
    void everyAcknowledgedAppendSurvivesKillMinusNine() throws Exception {
        String javaBin = ProcessHandle.current().info().command().orElse("java");
        Process child = new ProcessBuilder(javaBin, "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), CrashChild.class.getName(), dir.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        long acknowledged = 0;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while (acknowledged < 3_000 && (line = out.readLine()) != null) {
                acknowledged = Long.parseLong(line.trim());
            }
            child.destroyForcibly(); // SIGKILL: no shutdown hook, no close, no checkpoint
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        } finally {
            child.destroyForcibly();
        }
        assertTrue(acknowledged >= 3_000, "the child acknowledged only " + acknowledged);

        try (SqliteStore store = SqliteStore.open(dir, Fixtures.options(Fixtures.clock()))) {
            long last = store.lastSequence();
            assertTrue(last >= acknowledged, "last sequence " + last + " < acknowledged " + acknowledged);
            List<Long> pending = store.pending().stream().map(JournalEntry::seq).toList();
            // every appended message is pending unless its answer was recorded (seq = 2 mod 3)
            for (long seq = 1; seq <= acknowledged; seq++) {
                boolean answered = seq % 3 == 2 && seq + 1 <= acknowledged;
                if (!answered) {
                    assertTrue(Collections.binarySearch(pending, seq) >= 0, "lost acknowledged seq " + seq);
                }
                assertTrue(store.seen(Fixtures.entry(seq).messageKey()) || !answered, "seq " + seq);
            }
            assertEquals(pending.stream().sorted().toList(), pending);
        }
    }
}
