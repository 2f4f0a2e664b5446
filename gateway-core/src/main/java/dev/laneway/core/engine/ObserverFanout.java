package dev.laneway.core.engine;

import dev.laneway.core.scheduling.PriorityClass;
import dev.laneway.core.Disposition;
import dev.laneway.core.InboundMessage;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends dispositions to a listener and an observer, and everything else to the observer; a
 * failing observer is logged and never disturbs the engine.
 */
final class ObserverFanout implements GatewayObserver {

    private static final Logger log = LoggerFactory.getLogger(ObserverFanout.class);

    private final DispositionListener listener;
    private final GatewayObserver observer;

    private ObserverFanout(DispositionListener listener, GatewayObserver observer) {
        this.listener = listener;
        this.observer = observer;
    }

    static GatewayObserver of(DispositionListener listener, GatewayObserver observer) {
        return new ObserverFanout(listener, observer);
    }

    @Override
    public void recorded(InboundMessage message, Disposition disposition) {
        guard(() -> listener.recorded(message, disposition));
        guard(() -> observer.recorded(message, disposition));
    }

    @Override
    public void granted(PriorityClass asked, PriorityClass served, String tenant, Duration waited, Duration estimated) {
        guard(() -> observer.granted(asked, served, tenant, waited, estimated));
    }

    @Override
    public void promoted(PriorityClass from, PriorityClass to) {
        guard(() -> observer.promoted(from, to));
    }

    @Override
    public void admission(PriorityClass priority, String action, String reason) {
        guard(() -> observer.admission(priority, action, reason));
    }

    @Override
    public void runFinished(String agent, Duration waited, Duration duration, RunResult outcome) {
        guard(() -> observer.runFinished(agent, waited, duration, outcome));
    }

    @Override
    public void laneWaited(String lane, Duration waited) {
        guard(() -> observer.laneWaited(lane, waited));
    }

    @Override
    public void drainDelayed(Duration delay) {
        guard(() -> observer.drainDelayed(delay));
    }

    @Override
    public void sent(String channel) {
        guard(() -> observer.sent(channel));
    }

    @Override
    public void sendFailed(String channel) {
        guard(() -> observer.sendFailed(channel));
    }

    @Override
    public void rateLimited(String channel) {
        guard(() -> observer.rateLimited(channel));
    }

    @Override
    public void agentRetried(String agent) {
        guard(() -> observer.agentRetried(agent));
    }

    @Override
    public void emptyAnswer(String agent) {
        guard(() -> observer.emptyAnswer(agent));
    }

    private static void guard(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            log.warn("metrics observer failed", e);
        }
    }
}
