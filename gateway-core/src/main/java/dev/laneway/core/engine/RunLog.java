package dev.laneway.core.engine;

import dev.laneway.core.SessionKey;
import dev.laneway.core.agent.RunOutcome;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The one INFO line per finished run (session, run, messages, wait, duration, outcome), and its metrics. */
final class RunLog {

    private static final Logger log = LoggerFactory.getLogger("dev.laneway.runs");

    private RunLog() {
    }

    /** @param now when it finished, epoch millis */
    static void finished(Run run, SessionKey session, long now, RunOutcome outcome, String agent,
                         GatewayObserver observer) {
        long started = run.startedAtMillis != Run.NOT_STARTED ? run.startedAtMillis : now;
        // whole milliseconds: a run under one takes Duration.ZERO, no object
        Duration waited = Duration.ofMillis(started - run.createdAtMillis);
        Duration took = Duration.ofMillis(now - started);
        observer.runFinished(agent, waited, took, kind(outcome));
        if (!log.isInfoEnabled()) {
            return;
        }
        log.info("run finished: session={} run={} mode={} messages={} attempt={} waitMs={} durationMs={} outcome={}",
                session, run.id, run.summaryOnly() ? "overflow" : run.mode.id(), run.messageCount(), run.attempt, waited.toMillis(),
                took.toMillis(), describe(outcome));
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
