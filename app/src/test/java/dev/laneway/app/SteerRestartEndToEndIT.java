package dev.laneway.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * Through the real CLI, its SQLite store and the openai agent against a fake model server whose
 * answers the test releases one by one: in steer mode a run answers A1, then goes on with one more
 * model call for the steer B1, answers it, and goes on again for C1; kill -9 while that last call
 * is open. After the restart neither A1 nor B1 is answered again; only C1, which never got its
 * answer, runs (on its own).
 */
class SteerRestartEndToEndIT {

    private static final Duration WAIT = Duration.ofSeconds(40);

    @TempDir
    Path dir;

    private Path config(FakeModelServer model) throws Exception {
        Path config = dir.resolve("laneway.yaml");
        Files.writeString(config, """
                gateway:
                  dataDir: %s
                  http: { enabled: false }
                agents:
                  list:
                    assistant: { provider: openai, baseUrl: %s, model: test-model, maxHistoryMessages: 0 }
                messages:
                  queue: { mode: steer, debounceMs: 0 }
                """.formatted(dir.resolve("data"), model.baseUrl()));
        return config;
    }

    /** Sends a message that must steer the active run: /status shows it was not queued. */
    private static void steer(CliProcess cli, String text) throws Exception {
        cli.send(text);
        cli.send("/status");
        List<String> status = cli.nextLines(3, WAIT);
        assertTrue(status.get(1).startsWith("Queue: 0 queued; active run"), "steered, not queued: " + status);
    }

    @Test
    void kill9_whileARunThatAnsweredTwiceGoesOn_thenRestart_answersNeitherAgain() throws Exception {
        List<String> answers = new ArrayList<>();
        try (FakeModelServer model = new FakeModelServer()) {
            Path config = config(model);
            model.holdRequests(true);
            try (CliProcess first = new CliProcess(dir, Map.of(), "run", "--config", config.toString())) {
                first.send("A1");
                model.awaitRequests(1, WAIT);
                steer(first, "B1");

                model.release(0); // the answer to A1; B1 came while it was written: one more call
                assertEquals(List.of("model says: A1"), first.nextLines(1, WAIT));
                model.awaitRequests(2, WAIT);
                steer(first, "C1");

                model.release(1); // the answer to B1; C1 came meanwhile: one more call, held open
                assertEquals(List.of("model says: B1"), first.nextLines(1, WAIT));
                model.awaitRequests(3, WAIT);
                awaitAnswersOnDisk(first);
                first.close(); // SIGKILL while the call for C1 is open
                first.awaitExit(WAIT);
                answers.addAll(first.remaining().stream().filter(line -> line.startsWith("model says:")).toList());
            }
            assertEquals(List.of(), answers, "nothing else was answered before the kill");

            model.holdRequests(false);
            try (CliProcess second = new CliProcess(dir, Map.of(), "run", "--config", config.toString())) {
                answers.addAll(second.nextLines(1, WAIT));
                second.closeInput();
                assertEquals(0, second.awaitExit(WAIT));
                answers.addAll(second.remaining());
            }
            assertEquals(List.of("model says: C1"), answers, "A1 and B1 are not answered again; C1 runs alone");
            assertEquals(4, model.requests().size(), "one model call after the restart");
        }
    }

    /**
     * Waits until the answered records of A1 and B1 are committed, with nothing but what the CLI
     * prints: they were queued in the console's outbox right behind B1's answer; the reply to a
     * first {@code /queue} (same outbox) means they were handed to the store; a second
     * {@code /queue} writes an override, which returns only once committed, and the store commits in
     * order, so its reply means the records are on disk.
     */
    private static void awaitAnswersOnDisk(CliProcess cli) throws Exception {
        for (int i = 0; i < 2; i++) {
            cli.send("/queue steer");
            assertEquals(List.of("⚙️ Queue mode set to steer."), cli.nextLines(1, WAIT));
        }
    }
}
