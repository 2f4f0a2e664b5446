package dev.laneway.agents.testing;

import dev.laneway.core.Route;
import dev.laneway.core.SessionKey;
import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.agent.RunOutcome;
import dev.laneway.core.agent.RunRequest;
import dev.laneway.core.agent.SteerMessage;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** Small helpers for building requests and waiting on runs. */
public final class Runs {

    private static final AtomicLong IDS = new AtomicLong();

    private Runs() {
    }

    public static RunRequest request(String prompt) {
        return request("console:local", prompt);
    }

    public static RunRequest request(String session, String prompt) {
        return new RunRequest("run-" + IDS.incrementAndGet(), SessionKey.of(session), prompt,
                new Route("console", "default", "local", null, null), false, "user", 1);
    }

    public static List<SteerMessage> steer(String... texts) {
        return java.util.Arrays.stream(texts)
                .map(t -> new SteerMessage(IDS.incrementAndGet(), t, "user"))
                .toList();
    }

    /** The run's outcome, waiting at most 10 s. */
    public static RunOutcome outcome(AgentRun run) {
        try {
            return run.completion().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("run did not complete normally", e);
        }
    }

    public static boolean isDone(AgentRun run) {
        return run.completion().toCompletableFuture().isDone();
    }
}
