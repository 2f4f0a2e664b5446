package dev.laneway.core.engine;

import dev.laneway.core.agent.RunEvents;
import dev.laneway.core.agent.SteerMessage;
import java.util.List;
import java.util.function.Consumer;

/**
 * The events a run's agent sees: replies go to the outbox unless the run has been aborted; each
 * delivered reply is reported to {@code onReply} with the steers it answers, so the run's messages
 * and those steers count as answered from then on. Streamed deltas and tool steps are not shown by
 * any channel yet, so they are dropped here.
 */
final class GatedRunEvents implements RunEvents {

    private final Run run;
    private final Outbox outbox;
    private final Runnable onRetry;
    private final Consumer<List<SteerMessage>> onReply;

    GatedRunEvents(Run run, Outbox outbox, Runnable onRetry, Consumer<List<SteerMessage>> onReply) {
        this.run = run;
        this.outbox = outbox;
        this.onRetry = onRetry;
        this.onReply = onReply;
    }

    @Override
    public void retrying(String reason) {
        onRetry.run();
    }

    @Override
    public void reply(String text) {
        reply(text, List.of());
    }

    @Override
    public void reply(String text, List<SteerMessage> answeredSteers) {
        if (run.aborted || text == null || text.isBlank()) {
            return;
        }
        run.delivered = true;
        outbox.send(run.route, text, () -> !run.aborted);
        onReply.accept(answeredSteers == null ? List.of() : answeredSteers);
    }

    @Override
    public boolean aborted() {
        return run.aborted;
    }
}
