package dev.laneway.core.engine;

import dev.laneway.core.SessionKey;
import dev.laneway.core.agent.RunOutcome;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The one INFO line per finished run (session, run, messages, wait, duration, outcome), and its metrics. */
final class RunLog {

    private static final Logger log = LoggerFactory.getLogger("dev.laneway.runs");

    private RunLog() {
    }

    static void finished(Run run, SessionKey session, Instant now, RunOutcome outcome, String agent,
                         GatewayObserver observer) {
        Instant started = run.startedAt != null ? run.startedAt : now;
        observer.runFinished(agent, Duration.between(run.createdAt, started), Duration.between(started, now), kind(outcome));
        if (!log.isInfoEnabled()) {
            return;
        }
        log.info("run finished: session={} run={} mode={} messages={} attempt={} waitMs={} durationMs={} outcome={}",
                session, run.id, run.summaryOnly() ? "overflow" : run.mode.id(), run.messageCount(), run.attempt, Duration.between(run.createdAt, started).toMillis(),
                Duration.between(started, now).toMillis(), describe(outcome));
    }

    static GatewayObserver.RunResult kind(RunOutcome outcome) {
        return switch (outcome) {
            case RunOutcome.Completed c -> GatewayObserver.RunResult.COMPLETED;
            case RunOutcome.Failed f -> GatewayObserver.RunResult.FAILED;
            case RunOutcome.Aborted a -> GatewayObserver.RunResult.ABORTED;
            case RunOutcome.Reported r -> GatewayObserver.RunResult.REPORTED;
        };
    }

    private static String describe(RunOutcome outcome) {
        return switch (outcome) {
            case RunOutcome.Completed c -> "completed";
            case RunOutcome.Failed f -> "failed(" + f.reason() + ")";
            case RunOutcome.Aborted a -> "aborted";
            case RunOutcome.Reported r -> "reported(" + r.reason() + ")";
        };
    }
}
