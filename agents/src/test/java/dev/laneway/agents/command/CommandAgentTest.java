package dev.laneway.agents.command;

import static dev.laneway.agents.testing.Runs.outcome;
import static dev.laneway.agents.testing.Runs.request;
import static dev.laneway.agents.testing.Runs.steer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.laneway.agents.testing.RecordingEvents;
import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.agent.RunOutcome;
import dev.laneway.core.agent.SteerResult;
import dev.laneway.core.testing.ManualTime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

@EnabledOnOs({OS.LINUX, OS.MAC})
class CommandAgentTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final ManualTime scheduler = new ManualTime();
    private final RecordingEvents events = new RecordingEvents();

    @TempDir
    Path dir;

    private AgentRun run(String script, String prompt) {
        return new CommandAgent("shell", List.of("/bin/sh", "-c", script), TIMEOUT, scheduler)
                .start(request(prompt), events);
    }

    @Test
    void promptGoesToStdin_andTrimmedStdoutIsTheReply() {
        RunOutcome outcome = outcome(run("cat", "  hello\n  world \n\n"));

        assertEquals(RunOutcome.Completed.clean(), outcome);
        assertEquals(List.of("hello\n  world"), events.replies());
    }

    @Test
    void attachments_areFilesNamedInLanewayAttachments_deletedAfterTheRun_andAFailedOneIsANotice() throws Exception {
        var notes = new dev.laneway.core.Attachment("document", "notes.txt", "text/plain", 5, "notes");
        var gone = new dev.laneway.core.Attachment("document", "gone.pdf", "application/pdf", 9, "gone");
        dev.laneway.core.agent.AttachmentLoader loader = message -> message.attachments().stream()
                .map(a -> a.ref().equals("notes")
                        ? new dev.laneway.core.agent.LoadedFile(a, "hello".getBytes(java.nio.charset.StandardCharsets.UTF_8),
                                "text/plain", null, null)
                        : dev.laneway.core.agent.LoadedFile.failed(a, "the download failed (HTTP 500)"))
                .toList();
        var plain = request("read it");
        var withFiles = new dev.laneway.core.agent.RunRequest(plain.runId(), plain.session(), plain.prompt(),
                plain.route(), false, "user", 1, plain.claim(),
                List.of(new dev.laneway.core.agent.MessageFiles("console", List.of(notes, gone))));
        Path files = dir.resolve("attachments");
        RunOutcome outcome = outcome(new CommandAgent("shell", List.of("/bin/sh", "-c",
                "echo \"$LANEWAY_ATTACHMENTS\"; cat \"$LANEWAY_ATTACHMENTS\""), TIMEOUT, scheduler)
                .readingFiles(loader, files).start(withFiles, events));

        assertEquals(RunOutcome.Completed.clean(), outcome);
        assertEquals(2, events.replies().size());
        assertEquals(dev.laneway.agents.files.FileNotices.notOpened("gone.pdf", "the download failed (HTTP 500)"),
                events.replies().get(0));
        String[] lines = events.replies().get(1).split("\n");
        assertTrue(lines[0].startsWith(files.toString()) && lines[0].endsWith("/notes.txt"), lines[0]);
        assertEquals("hello", lines[1], "the file held the fetched bytes");
        try (var left = java.nio.file.Files.list(files)) {
            assertEquals(0, left.count(), "the run's directory is gone once it ended");
        }
    }

    @Test
    void emptyStdout_completesWithoutAReply() {
        assertEquals(RunOutcome.Completed.clean(), outcome(run("cat > /dev/null; echo noise >&2", "hi")));
        assertEquals(List.of(), events.replies());
    }

    @Test
    void nonZeroExit_failsWithTheExitCodeAndSendsNoReply() {
        RunOutcome outcome = outcome(run("echo partial; echo boom >&2; exit 3", "hi"));

        assertEquals(RunOutcome.Failed.of("exit code 3", false), outcome);
        assertEquals(List.of(), events.replies());
    }

    @Test
    void missingProgram_failsWithoutThrowing() {
        AgentRun run = new CommandAgent("shell", List.of(dir.resolve("nope").toString()), TIMEOUT, scheduler)
                .start(request("hi"), events);

        assertEquals(RunOutcome.Failed.of("cannot start command", false), outcome(run));
    }

    @Test
    void timeout_killsTheWholeProcessTree() throws Exception {
        Path fifo = fifo();
        CompletableFuture<Long> child = readPid(fifo);
        AgentRun run = run("sleep 30 & echo $! > '" + fifo + "'; wait", "hi");

        long sleeper = child.get(10, TimeUnit.SECONDS);
        scheduler.awaitPending(TIMEOUT);
        scheduler.advance(TIMEOUT);

        assertEquals(RunOutcome.Failed.of("timeout", false), outcome(run));
        assertGone(sleeper);
    }

    @Test
    void abort_killsTheWholeProcessTree() throws Exception {
        Path fifo = fifo();
        CompletableFuture<Long> child = readPid(fifo);
        AgentRun run = run("sleep 30 & echo $! > '" + fifo + "'; wait", "hi");

        long sleeper = child.get(10, TimeUnit.SECONDS);
        run.abort();
        run.abort();

        assertEquals(new RunOutcome.Aborted(List.of()), outcome(run));
        assertGone(sleeper);
        assertEquals(List.of(), events.replies());
    }

    @Test
    void steering_isAlwaysRefused() {
        AgentRun run = run("cat", "hi");

        assertEquals(SteerResult.REFUSED, run.steer(steer("more")));
        outcome(run);
    }

    @Test
    void defaultTimer_isCancelledWhenTheCommandFinishesInTime() {
        AgentRun run = new CommandAgent("shell", List.of("/bin/sh", "-c", "cat"), Duration.ofMinutes(1))
                .start(request("quick"), events);

        assertEquals(RunOutcome.Completed.clean(), outcome(run));
        assertEquals(List.of("quick"), events.replies());
    }

    @Test
    void invalidConfiguration_isRejectedNamingTheSetting() {
        assertEquals("agents.list.shell.command: must not be empty (e.g. command: [my-agent, --json]), got '[]'",
                assertThrows(IllegalArgumentException.class,
                        () -> new CommandAgent("shell", List.of(), TIMEOUT)).getMessage());
        assertEquals("agents.list.shell.timeoutMs: must be a duration > 0, got '0'",
                assertThrows(IllegalArgumentException.class,
                        () -> new CommandAgent("shell", List.of("x"), Duration.ZERO)).getMessage());
    }

    /** A named pipe: opening it for reading waits until the script writes, no polling needed. */
    private Path fifo() throws Exception {
        Path fifo = dir.resolve("pid");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertEquals(true, mkfifo.waitFor(10, TimeUnit.SECONDS));
        assertEquals(0, mkfifo.exitValue());
        return fifo;
    }

    private static CompletableFuture<Long> readPid(Path fifo) {
        CompletableFuture<Long> pid = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                pid.complete(Long.parseLong(Files.readString(fifo).strip()));
            } catch (Exception e) {
                pid.completeExceptionally(e);
            }
        });
        return pid;
    }

    private static void assertGone(long pid) throws Exception {
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isPresent()) {
            handle.get().onExit().get(10, TimeUnit.SECONDS);
        }
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "process " + pid + " lives");
    }
}
