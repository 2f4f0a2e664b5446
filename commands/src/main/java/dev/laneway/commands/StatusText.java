package dev.laneway.commands;

import dev.laneway.core.command.SessionStatus;
import dev.laneway.core.jobs.JobStatus;
import dev.laneway.core.jobs.JobTimes;
import dev.laneway.core.scheduling.WaitEstimate;
import dev.laneway.core.lane.LaneSnapshot;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The {@code /status} reply:
 * <pre>
 * Status: mode=collect, debounce=1000ms, cap=20, drop=summarize.
 * Queue: 2 queued; active run for 12s.
 * Lanes: session:console:dm:you 1/1 active, 0 queued; main 1/4 active, 0 queued.
 * Agent: main (fallback: local).
 * </pre>
 * An idle session shows {@code Queue: 0 queued; idle.}; no lanes shows {@code Lanes: none.}; a run
 * waiting for {@code main} adds {@code Waiting: …} after {@code Lanes:}. When scheduled jobs post to
 * the conversation a line lists them: {@code Jobs: morning next 2026-03-02 08:00 Europe/Berlin.} With
 * more than one agent, the {@code Agent:} line (docs/behaviour.md §13.1) comes last, without
 * {@code (fallback: …)} for an agent with none.
 */
final class StatusText {

    private StatusText() {
    }

    static String of(SessionStatus status) {
        return of(status, List.of());
    }

    /** With a {@code Jobs:} line when scheduled jobs post to this conversation. */
    static String of(SessionStatus status, List<JobStatus> jobs) {
        String text = "Status: " + Replies.describe(status.settings()) + "\n"
                + "Queue: " + status.queueDepth() + " queued; " + run(status.activeRunAge()) + ".\n"
                + "Lanes: " + lanes(status) + ".";
        WaitEstimate waiting = status.waiting();
        if (waiting != null) {
            text += "\nWaiting: #" + waiting.position() + " in line, about " + waiting.waitSeconds() + " s.";
        }
        if (!jobs.isEmpty()) {
            text += "\nJobs: " + jobs.stream().map(StatusText::job).collect(Collectors.joining("; ")) + ".";
        }
        if (status.agent() != null) {
            text += "\nAgent: " + status.agent()
                    + (status.fallbacks().isEmpty() ? "" : " (fallback: " + String.join(", ", status.fallbacks()) + ")")
                    + ".";
        }
        return text;
    }

    /** {@code morning next 2026-03-02 08:00 Europe/Berlin}, or {@code morning no next fire}. */
    private static String job(JobStatus job) {
        return job.id() + (job.nextFire() == null ? " no next fire" : " next " + JobTimes.local(job.nextFire(), job.zone()));
    }

    private static String run(Duration age) {
        return age == null ? "idle" : "active run for " + age(age);
    }

    private static String lanes(SessionStatus status) {
        if (status.lanes().isEmpty()) {
            return "none";
        }
        return status.lanes().stream().map(StatusText::lane).collect(Collectors.joining("; "));
    }

    private static String lane(LaneSnapshot lane) {
        return lane.name() + " " + lane.active() + "/" + lane.cap() + " active, " + lane.queued() + " queued";
    }

    /** Whole seconds in the duration grammar's units: {@code 12s}, {@code 1m30s}, {@code 2h5m0s}. */
    static String age(Duration age) {
        long seconds = Math.max(0, age.getSeconds());
        long hours = seconds / 3600;
        long minutes = seconds % 3600 / 60;
        long rest = seconds % 60;
        if (hours > 0) {
            return hours + "h" + minutes + "m" + rest + "s";
        }
        return minutes > 0 ? minutes + "m" + rest + "s" : rest + "s";
    }
}
