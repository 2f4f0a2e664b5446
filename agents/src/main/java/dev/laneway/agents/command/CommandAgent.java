package dev.laneway.agents.command;

import dev.laneway.core.agent.AttachmentLoader;
import java.nio.file.Path;
import dev.laneway.core.agent.Agent;
import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.agent.RunEvents;
import dev.laneway.core.agent.RunRequest;
import dev.laneway.core.agent.settings.CommandSettings;
import dev.laneway.core.time.Scheduler;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@code provider: command}: runs a program once per turn, the prompt on its stdin; its stdout
 * (trimmed) is the reply, its stderr goes to the log. A timeout or an abort kills the whole
 * process tree; a non-zero exit fails the run. Cannot be steered. The program inherits the
 * gateway's environment and working directory, plus {@code LANEWAY_ATTACHMENTS}: the paths of the
 * turn's attachments, one per line, in a directory deleted when the run ends (docs/behaviour.md §15.2).
 */
public final class CommandAgent implements Agent {

    private final String name;
    private final List<String> command;
    private final Duration timeout;
    private final Duration runTimeout;
    private final Scheduler scheduler;
    private volatile AttachmentLoader loader = AttachmentLoader.NONE;
    private volatile Path filesDir;

    /** Times out on the JDK's shared delay thread. */
    public CommandAgent(String name, List<String> command, Duration timeout) {
        this(new CommandSettings(name, command, timeout), CommandAgent::delayed);
    }

    /** Times out on {@code scheduler}; the settings are validated by {@link CommandSettings}. */
    public CommandAgent(String name, List<String> command, Duration timeout, Scheduler scheduler) {
        this(new CommandSettings(name, command, timeout), scheduler);
    }

    /** Times out on {@code scheduler} (the gateway's, or a manual one in tests). */
    public CommandAgent(CommandSettings settings, Scheduler scheduler) {
        this.name = settings.name();
        this.command = settings.command();
        this.timeout = settings.timeout();
        this.runTimeout = settings.runTimeout();
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    }

    /**
     * Fetches attachments with {@code loader} and writes each run's under {@code dir} (docs/behaviour.md
     * §15.2); set while wiring, before the first run. Until then {@code LANEWAY_ATTACHMENTS} is empty.
     */
    public CommandAgent readingFiles(AttachmentLoader loader, Path dir) {
        this.loader = Objects.requireNonNull(loader, "loader");
        this.filesDir = Objects.requireNonNull(dir, "dir");
        return this;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Duration runTimeout() {
        return runTimeout;
    }

    @Override
    public AgentRun start(RunRequest request, RunEvents events) {
        CommandRun run = new CommandRun(name, command, request.prompt(), events, request.files(), loader, filesDir);
        Thread.ofVirtual().name("command-" + name + "-" + request.runId()).start(() -> run.execute(timeout, scheduler));
        return run;
    }

    private static Scheduler.Cancellable delayed(Duration delay, Runnable task) {
        CompletableFuture<Void> pending = CompletableFuture.runAsync(task,
                CompletableFuture.delayedExecutor(delay.toNanos(), TimeUnit.NANOSECONDS, Runnable::run));
        return () -> pending.cancel(false);
    }
}
