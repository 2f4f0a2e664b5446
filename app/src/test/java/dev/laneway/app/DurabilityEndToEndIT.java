package dev.laneway.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Through the real CLI and its SQLite store: a burst queued behind a slow run survives SIGTERM and
 * kill -9, messages sent during the shutdown grace period are kept rather than turned away, every
 * queued message is answered exactly once across the restart, expired messages are dropped with a
 * notice, and a corrupt database is refused.
 */
class DurabilityEndToEndIT {

    private static final Duration WAIT = Duration.ofSeconds(40);

    @TempDir
    Path dir;

    private Path config(String ttl) throws Exception {
        return config(ttl, 2500);
    }

    private Path config(String ttl, int echoDelayMs) throws Exception {
        Path config = dir.resolve("laneway.yaml");
        Files.writeString(config, """
                gateway:
                  dataDir: %s
                  shutdownGraceMs: 8000
                  http: { enabled: false }
                agents:
                  list:
                    assistant: { provider: echo, delayMs: %d }
                messages:
                  queue: { mode: followup, debounceMs: 0, ttl: %s }
                """.formatted(dir.resolve("data"), echoDelayMs, ttl));
        return config;
    }

    /** Sends m1..m4 (m1 runs, three queue) and waits until /status shows them accepted. */
    private static void burst(CliProcess cli) throws Exception {
        for (int i = 1; i <= 4; i++) {
            cli.send("m" + i);
        }
        cli.send("/status");
        List<String> status = cli.nextLines(3, WAIT);
        assertTrue(status.get(1).startsWith("Queue: 3 queued"), status.toString());
    }

    private static List<String> answersUntilExit(CliProcess cli, int expected) throws Exception {
        List<String> answers = new ArrayList<>(cli.nextLines(expected, WAIT));
        cli.closeInput();
        assertEquals(0, cli.awaitExit(WAIT));
        answers.addAll(cli.remaining());
        return answers;
    }

    @Test
    void sigterm_thenRestart_answersEveryQueuedMessageExactlyOnce() throws Exception {
        Path config = config("1h");
        List<String> answers = new ArrayList<>();
        try (CliProcess first = new CliProcess(dir, Map.of(), "run", "--config", config.toString())) {
            burst(first);
            first.sigterm();
            first.awaitExit(WAIT);
            answers.addAll(first.remaining());
        }
        assertEquals(List.of("echo: m1"), answers, "the active run finished within the grace period; the rest waits");
        try (CliProcess second = new CliProcess(dir, Map.of(), "run", "--config", config.toString())) {
            answers.addAll(answersUntilExit(second, 3));
        }
        assertEquals(List.of("echo: m1", "echo: m2", "echo: m3", "echo: m4"), answers);
    }

    @Test
    void sigterm_thenMessagesDuringTheGracePeriod_areKeptNotTurnedAway_andEveryMessageIsAnsweredOnceAfterTheRestart()
            throws Exception {
        Path config = config("1h", 5000);
        List<String> answers = new ArrayList<>();
        String log;
        try (CliProcess first = new CliProcess(dir, Map.of("LANEWAY_LOG_LEVEL", "INFO"), "run", "--config",
                config.toString())) {
            burst(first);                    // m1 runs for 5 s; m2..m4 are queued followups
            first.sigterm();
            first.awaitLog("shutdown: no new runs", 1, WAIT);
            for (int i = 1; i <= 3; i++) {
                first.send("g" + i);         // while m1 still has its grace period
            }
            first.awaitExit(WAIT);
            answers.addAll(first.remaining());
            log = first.stderr();
        }
        assertEquals(List.of("echo: m1"), answers, "nobody is told to come back later; the rest waits on disk");
        assertTrue(log.contains("shutdown: 3 message(s) that arrived during the shutdown are kept"), log);
        config("1h", 100);
        try (CliProcess second = new CliProcess(dir, Map.of(), "run", "--config", config.toString())) {
            answers.addAll(answersUntilExit(second, 6));
        }
        assertEquals(List.of("echo: m1", "echo: m2", "echo: m3", "echo: m4", "echo: g1", "echo: g2", "echo: g3"),
                answers, "every message answered exactly once, in the order it was sent");
    }

    @Test
    void kill9_inTheMiddleOfTheBurst_thenRestart_answersEveryMessageExactlyOnce() throws Exception {
        Path config = config("1h");
        List<String> answers = new ArrayList<>();
        try (CliProcess first = new CliProcess(dir, Map.of(), "run", "--config", config.toString())) {
            burst(first);
            first.close(); // SIGKILL while m1 is still running
            first.awaitExit(WAIT);
            answers.addAll(first.remaining());
        }
        assertEquals(List.of(), answers, "killed before the first answer");
        try (CliProcess second = new CliProcess(dir, Map.of(), "run", "--config", config.toString())) {
            answers.addAll(answersUntilExit(second, 4));
        }
        assertEquals(List.of("echo: m1", "echo: m2", "echo: m3", "echo: m4"), answers,
                "the in-flight message runs again, the queued ones in order, each once");
    }

    @Test
    void kill9_afterTheFirstAnswer_thenRestart_neverAnswersItAgain_andAnswersTheRestExactlyOnce() throws Exception {
        Path config = config("1h");
        List<String> answers = new ArrayList<>();
        try (CliProcess first = new CliProcess(dir, Map.of("LANEWAY_LOG_LEVEL", "INFO"), "run", "--config", config.toString())) {
            burst(first);
            answers.addAll(first.awaitLine("echo: m1", WAIT));
            answers.add("echo: m1");
            awaitAnsweredOnDisk(first);
            first.close(); // SIGKILL while m2 is running and m3, m4 are queued
            first.awaitExit(WAIT);
            answers.addAll(first.remaining().stream().filter(line -> line.startsWith("echo: ")).toList());
        }
        assertEquals(List.of("echo: m1"), answers, "killed after the first answer, before the second");
        try (CliProcess second = new CliProcess(dir, Map.of(), "run", "--config", config.toString())) {
            answers.addAll(answersUntilExit(second, 3));
        }
        assertEquals(List.of("echo: m1", "echo: m2", "echo: m3", "echo: m4"), answers,
                "m1 is not answered again; the running and queued ones are answered once each, in order");
    }

    /**
     * Waits until m1's "answered" record is committed, with nothing but what the CLI prints: the
     * run-finished log line means the record is queued behind m1's reply in the console's outbox;
     * the reply to a first {@code /queue} command (same outbox) means it was handed to the store;
     * a second {@code /queue} writes an override, which returns only once committed, and the store
     * commits in order, so its reply means m1's record is on disk.
     */
    private static void awaitAnsweredOnDisk(CliProcess cli) throws Exception {
        cli.awaitLog("run finished:", 1, WAIT);
        for (int i = 0; i < 2; i++) {
            cli.send("/queue followup");
            assertEquals(List.of("⚙️ Queue mode set to followup."), cli.nextLines(1, WAIT));
        }
    }

    @Test
    void queuedMessagesOlderThanTheTtl_areDroppedWithANotice() throws Exception {
        Path config = config("1ms");
        try (CliProcess first = new CliProcess(dir, Map.of(), "run", "--config", config.toString())) {
            burst(first);
            first.close();
            first.awaitExit(WAIT);
        }
        try (CliProcess second = new CliProcess(dir, Map.of("LANEWAY_LOG_LEVEL", "WARN"), "run", "--config", config.toString())) {
            List<String> out = answersUntilExit(second, 1);
            assertEquals(1, out.size(), out.toString());
            assertTrue(out.get(0).startsWith("⚠️ Skipped: this message waited longer than"), out.toString());
            assertFalse(out.stream().anyMatch(line -> line.startsWith("echo: ")), "expired messages never run");
            assertTrue(second.stderr().contains("older than messages.queue.ttl"), second.stderr());
        }
    }

    @Test
    void aCorruptDatabase_isRefusedWithAMessageNamingTheFile() throws Exception {
        Path config = config("1h");
        Path data = dir.resolve("data");
        Files.createDirectories(data);
        Files.write(data.resolve("laneway.db"), "this is not a database, just some bytes. ".repeat(200).getBytes());
        try (CliProcess cli = new CliProcess(dir, Map.of(), "run", "--config", config.toString())) {
            int exit = cli.awaitExit(WAIT);
            assertNotEquals(0, exit);
            assertTrue(cli.stderr().contains(data.resolve("laneway.db").toString()), cli.stderr());
        }
        assertTrue(Files.size(data.resolve("laneway.db")) > 1000, "never wiped");
    }
}
