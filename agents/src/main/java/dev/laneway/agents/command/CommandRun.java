package dev.laneway.agents.command;

import dev.laneway.agents.files.RunFiles;
import dev.laneway.core.agent.AttachmentLoader;
import dev.laneway.core.agent.MessageFiles;
import java.nio.file.Path;
import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.agent.RunEvents;
import dev.laneway.core.agent.RunOutcome;
import dev.laneway.core.agent.SteerMessage;
import dev.laneway.core.agent.SteerResult;
import dev.laneway.core.time.Scheduler;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of a command.
 *
 * <p>Concurrency: the run thread starts the process, reads its stdout to the end and waits for it
 * to exit; two helper virtual threads write stdin and log stderr. {@link #abort} (an engine
 * thread) and the timeout task (the scheduler's thread) set a flag and kill the process tree on a
 * fresh virtual thread, so they never block. {@code lock} guards {@code process}, {@code aborted}
 * and {@code timedOut}. {@code completion} is completed once, by the run thread.
 */
final class CommandRun implements AgentRun {

    private static final Logger log = LoggerFactory.getLogger(CommandRun.class);
    private static final int MAX_OUTPUT_BYTES = 1 << 20;

    private final String agent;
    private final List<String> command;
    private final String prompt;
    private final RunEvents events;
    private final List<MessageFiles> files;
    private final AttachmentLoader loader;
    private final Path filesDir;
    private final CompletableFuture<RunOutcome> completion = new CompletableFuture<>();
    private final ReentrantLock lock = new ReentrantLock();
    private Process process;   // guarded by lock: null until started
    private boolean aborted;   // guarded by lock
    private boolean timedOut;  // guarded by lock

    CommandRun(String agent, List<String> command, String prompt, RunEvents events) {
        this(agent, command, prompt, events, List.of(), AttachmentLoader.NONE, null);
    }

    /**
     * @param files  the turn's attachments, written under {@code filesDir} and named in
     *               {@code LANEWAY_ATTACHMENTS} (docs/behaviour.md §15.2)
     */
    CommandRun(String agent, List<String> command, String prompt, RunEvents events, List<MessageFiles> files,
               AttachmentLoader loader, Path filesDir) {
        this.files = files;
        this.loader = loader;
        this.filesDir = filesDir;
        this.agent = agent;
        this.command = command;
        this.prompt = prompt;
        this.events = events;
    }

    /** The run thread's body. Never throws; completes {@link #completion()} once. */
    void execute(Duration timeout, Scheduler scheduler) {
        RunOutcome outcome = RunOutcome.Failed.of("internal error", false);
        try {
            outcome = runProcess(timeout, scheduler);
        } catch (RuntimeException | Error e) {
            log.error("command agent '{}' crashed", agent, e);
        } finally {
            completion.complete(outcome);
        }
    }

    private RunOutcome runProcess(Duration timeout, Scheduler scheduler) {
        if (files.isEmpty() || filesDir == null) {
            return runProcess(timeout, scheduler, null);
        }
        try (RunFiles written = RunFiles.write(loader, files, filesDir)) {
            if (!written.notices().isEmpty()) {
                events.reply(String.join("\n", written.notices()));
            }
            return runProcess(timeout, scheduler, written);
        } catch (IOException e) {
            log.warn("command agent '{}': could not write the run's attachments: {}", agent, e.getClass().getSimpleName());
            return RunOutcome.Failed.of("cannot write attachments", false);
        }
    }

    private RunOutcome runProcess(Duration timeout, Scheduler scheduler, RunFiles written) {
        Process started;
        try {
            ProcessBuilder builder = new ProcessBuilder(command);
            builder.environment().put(RunFiles.ENV, written == null ? "" : written.envValue());
            started = builder.start();
        } catch (IOException e) {
            log.warn("command agent '{}': cannot start {}: {}", agent, command, e.getMessage());
            return RunOutcome.Failed.of("cannot start command", false);
        }
        if (!attach(started)) {
            ProcessTree.kill(started);
        }
        Scheduler.Cancellable timer = scheduler.schedule(timeout, this::expire);
        try {
            Thread.ofVirtual().start(() -> feed(started.getOutputStream()));
            Thread.ofVirtual().start(() -> logStderr(started.getErrorStream()));
            String stdout = readBounded(started.getInputStream());
            int exit = started.waitFor();
            return outcome(exit, stdout);
        } catch (IOException | InterruptedException e) {
            ProcessTree.kill(started);
            return isAborted() ? new RunOutcome.Aborted(List.of()) : RunOutcome.Failed.of("command failed", false);
        } finally {
            timer.cancel();
        }
    }

    private RunOutcome outcome(int exit, String stdout) {
        lock.lock();
        try {
            if (aborted) {
                return new RunOutcome.Aborted(List.of());
            }
            if (timedOut) {
                return RunOutcome.Failed.of("timeout", false);
            }
        } finally {
            lock.unlock();
        }
        if (exit != 0) {
            return RunOutcome.Failed.of("exit code " + exit, false);
        }
        String reply = stdout.strip();
        if (!reply.isEmpty()) {
            events.reply(reply);
        }
        return RunOutcome.Completed.clean();
    }

    /** Records the process; false when it must die at once (aborted before it started). */
    private boolean attach(Process started) {
        lock.lock();
        try {
            process = started;
            return !aborted;
        } finally {
            lock.unlock();
        }
    }

    private void expire() {
        killLater(false);
    }

    private void killLater(boolean abort) {
        Process target;
        lock.lock();
        try {
            if (abort) {
                aborted = true;
            } else if (!aborted) {
                timedOut = true;
            }
            target = process;
        } finally {
            lock.unlock();
        }
        if (target != null) {
            Thread.ofVirtual().start(() -> ProcessTree.kill(target));
        }
    }

    private boolean isAborted() {
        lock.lock();
        try {
            return aborted;
        } finally {
            lock.unlock();
        }
    }

    private void feed(OutputStream stdin) {
        try (stdin) {
            stdin.write(prompt.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            log.debug("command agent '{}' did not read all of its stdin: {}", agent, e.toString());
        }
    }

    private void logStderr(InputStream stderr) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(stderr, StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                log.info("command agent '{}' stderr: {}", agent, line);
            }
        } catch (IOException e) {
            log.debug("command agent '{}': stderr closed: {}", agent, e.toString());
        }
    }

    /** Reads stdout to the end, keeping at most {@link #MAX_OUTPUT_BYTES}. */
    private String readBounded(InputStream stdout) throws IOException {
        ByteArrayOutputStream kept = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        int read;
        while ((read = stdout.read(buffer)) >= 0) {
            int room = MAX_OUTPUT_BYTES - kept.size();
            kept.write(buffer, 0, Math.min(room, read));
        }
        return kept.toString(StandardCharsets.UTF_8);
    }

    @Override
    public CompletionStage<RunOutcome> completion() {
        return completion;
    }

    @Override
    public SteerResult steer(List<SteerMessage> messages) {
        return SteerResult.REFUSED;
    }

    @Override
    public void abort() {
        killLater(true);
    }
}
