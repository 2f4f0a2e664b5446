package dev.laneway.agents.echo;

import dev.laneway.core.agent.Agent;
import dev.laneway.core.agent.AgentRun;
import dev.laneway.core.agent.RunEvents;
import dev.laneway.core.agent.RunRequest;
import dev.laneway.core.agent.settings.EchoSettings;
import dev.laneway.core.time.Scheduler;
import java.time.Duration;
import java.util.Objects;

/**
 * The built-in demo agent: replies {@code echo: <prompt>}, optionally after a delay, so that queue
 * behaviour is visible in a demo. It can be steered: each steer batch accepted before the run
 * completes adds one more reply {@code echo: <texts joined by newlines>} after the main reply.
 * With no delay it answers inside {@link #start}, so such a run is already complete when
 * {@code start} returns.
 */
public final class EchoAgent implements Agent {

    private final String name;
    private final Duration delay;
    private final Duration runTimeout;
    private final Scheduler scheduler;

    /** The settings are validated by {@link EchoSettings}. */
    public EchoAgent(String name, Duration delay, Scheduler scheduler) {
        this(new EchoSettings(name, delay), scheduler);
    }

    public EchoAgent(EchoSettings settings, Scheduler scheduler) {
        this.name = settings.name();
        this.delay = settings.delay();
        this.runTimeout = settings.runTimeout();
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
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
        EchoRun run = new EchoRun(request.prompt(), events);
        if (delay.isZero()) {
            run.answer();
        } else {
            run.armTimer(scheduler.schedule(delay, run::answer));
        }
        return run;
    }
}
