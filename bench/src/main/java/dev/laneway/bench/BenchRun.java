package dev.laneway.bench;

import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.agent.RunOutcome;
import dev.laneway.core.agent.SteerMessage;
import dev.laneway.core.agent.SteerResult;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A benchmark agent's run: it completes when its future does, refuses steers, and an abort completes
 * it as aborted. Shared by {@link BenchAgent} and {@link LatencyAgent}.
 */
record BenchRun(CompletableFuture<RunOutcome> future) implements AgentRun {

    @Override
    public CompletionStage<RunOutcome> completion() {
        return future;
    }

    @Override
    public SteerResult steer(List<SteerMessage> messages) {
        return SteerResult.REFUSED;
    }

    @Override
    public void abort() {
        future.complete(new RunOutcome.Aborted(List.of()));
    }
}
