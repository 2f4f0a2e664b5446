package dev.laneway.core.engine;

import dev.laneway.core.agent.RunEvents;

/**
 * The events a run's agent sees: replies go to the outbox unless the run has been aborted; the
 * outbox reports a reply it could not deliver to the run's {@link Delivery}.
 * Streamed deltas and tool steps are not shown by any channel yet, so they are dropped here.
 */
final class GatedRunEvents implements RunEvents {

    private final Run run;
    private final Outbox outbox;
    private final Runnable onRetry;

    GatedRunEvents(Run run, Outbox outbox, Runnable onRetry) {
        this.run = run;
        this.outbox = outbox;
        this.onRetry = onRetry;
    }

    @Override
    public void retrying(String reason) {
        onRetry.run();
    }

    @Override
    public void reply(String text) {
        if (run.aborted || text == null || text.isBlank()) {
            return;
        }
        run.delivered = true;
        outbox.send(run.route, text, () -> !run.aborted, run.delivery);
    }

    @Override
    public boolean aborted() {
        return run.aborted;
    }
}
