package dev.laneway.core.engine;

import dev.laneway.core.agent.Agent;
import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.agent.RunEvents;
import dev.laneway.core.agent.RunOutcome;
import dev.laneway.core.agent.RunRequest;
import dev.laneway.core.agent.SteerMessage;
import dev.laneway.core.agent.SteerResult;
import dev.laneway.core.agent.settings.AgentSettings;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every call the engine makes into agent code, each in a guard: whatever the agent throws (an
 * {@link Error} too, such as NoClassDefFoundError or StackOverflowError) is logged and turned into
 * a result the engine can act on, so no run is left holding its lanes. No call here throws: a
 * fatal error ({@link Fatal}) is not swallowed but handed back (in a {@link Call}, or to an
 * {@link Effects}) for the caller to rethrow once its own clean-up is done. Stateless.
 */
final class AgentCalls {

    private static final Logger log = LoggerFactory.getLogger(AgentCalls.class);

    private AgentCalls() {
    }

    /**
     * What a call returned, or what it threw.
     *
     * @param value   the result; null when the call failed
     * @param failure what the agent threw, or null
     */
    record Call<T>(T value, Throwable failure) {
    }

    /** Starts a run; a null run counts as a failure. */
    static Call<AgentRun> start(Agent agent, RunRequest request, RunEvents events) {
        try {
            AgentRun handle = agent.start(request, events);
            if (handle == null) {
                log.error("agent returned no run for run {} of session {}", request.runId(), request.session());
                return new Call<>(null, new IllegalStateException("no run"));
            }
            return new Call<>(handle, null);
        } catch (Throwable e) {
            log.error("agent failed to start run {} of session {}", request.runId(), request.session(), e);
            return new Call<>(null, e);
        }
    }

    /** The run's completion; a null completion counts as a failure. */
    static Call<CompletionStage<RunOutcome>> completion(AgentRun handle, RunRequest request) {
        try {
            CompletionStage<RunOutcome> completion = handle.completion();
            if (completion == null) {
                log.error("agent run {} of session {} has no completion", request.runId(), request.session());
                return new Call<>(null, new IllegalStateException("no completion"));
            }
            return new Call<>(completion, null);
        } catch (Throwable e) {
            log.error("agent run {} of session {} failed to hand over its completion", request.runId(), request.session(), e);
            return new Call<>(null, e);
        }
    }

    /**
     * The agent's name, or {@code agent} when it has none or asking fails; the failure is handed back
     * too, so the caller can tell a fatal one (the value is {@code agent} then, never null).
     */
    static Call<String> name(Agent agent) {
        try {
            String name = agent.name();
            return new Call<>(name != null ? name : "agent", null);
        } catch (Throwable e) {
            log.warn("agent name failed: {}", e.toString());
            return new Call<>("agent", e);
        }
    }

    /**
     * How long a run of the agent may take ({@link Agent#runTimeout}); the default (5 minutes) when
     * the agent's answer is missing, not positive, or asking fails.
     */
    static Duration runTimeout(Agent agent) {
        try {
            Duration timeout = agent.runTimeout();
            if (timeout != null && timeout.isPositive()) {
                return timeout;
            }
            log.warn("agent gave no usable run timeout ({}); using {} ms", timeout,
                    AgentSettings.DEFAULT_RUN_TIMEOUT.toMillis());
        } catch (Throwable e) {
            // even a fatal error: the run has both lanes and must get a deadline; its start will meet the error again
            log.warn("agent runTimeout failed: {}; using {} ms", e.toString(), AgentSettings.DEFAULT_RUN_TIMEOUT.toMillis());
        }
        return AgentSettings.DEFAULT_RUN_TIMEOUT;
    }

    /** Offers a steer; refused when the agent throws (a fatal error is handed to {@code fx} to rethrow later). */
    static SteerResult steer(AgentRun handle, SteerMessage message, Effects fx) {
        try {
            SteerResult result = handle.steer(List.of(message));
            return result == null ? SteerResult.REFUSED : result;
        } catch (Throwable e) {
            log.warn("agent refused a steer by throwing; the message waits as a followup: {}", e.toString());
            fx.rethrowAfterwards(e);
            return SteerResult.REFUSED;
        }
    }

    /** Asks the run to abort; a failure is logged (a fatal error is handed to {@code fx} to rethrow later). */
    static void abort(AgentRun handle, Effects fx) {
        try {
            handle.abort();
        } catch (Throwable e) {
            log.warn("agent abort failed: {}", e.toString());
            fx.rethrowAfterwards(e);
        }
    }

}
