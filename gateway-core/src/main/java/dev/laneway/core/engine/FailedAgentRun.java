package dev.laneway.core.engine;

import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.agent.RunOutcome;
import dev.laneway.core.agent.SteerMessage;
import dev.laneway.core.agent.SteerResult;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** Stands in for an agent whose {@code start} threw: a run that has already failed. */
record FailedAgentRun(RunOutcome outcome) implements AgentRun {

    static FailedAgentRun of(String reason) {
        return new FailedAgentRun(RunOutcome.Failed.of(reason, false));
    }

    @Override
    public CompletionStage<RunOutcome> completion() {
        return CompletableFuture.completedFuture(outcome);
    }

    @Override
    public SteerResult steer(List<SteerMessage> messages) {
        return SteerResult.REFUSED;
    }

    @Override
    public void abort() {
    }
}
