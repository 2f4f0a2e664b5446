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
        try {
            listener.recorded(message, disposition);
        } catch (RuntimeException e) {
            failed(e);
        }
        try {
            observer.recorded(message, disposition);
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    @Override
    public void granted(PriorityClass asked, PriorityClass served, String tenant, Duration waited, Duration estimated) {
        try {
            observer.granted(asked, served, tenant, waited, estimated);
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    @Override
    public void promoted(PriorityClass from, PriorityClass to) {
        try {
            observer.promoted(from, to);
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    @Override
    public void admission(PriorityClass priority, String action, String reason) {
        try {
            observer.admission(priority, action, reason);
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    @Override
    public void runFinished(String agent, Duration waited, Duration duration, RunResult outcome) {
        try {
            observer.runFinished(agent, waited, duration, outcome);
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    @Override
    public void laneWaited(String lane, Duration waited) {
        try {
            observer.laneWaited(lane, waited);
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    @Override
    public void drainDelayed(Duration delay) {
        try {
            observer.drainDelayed(delay);
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    @Override
    public void sent(String channel) {
        try {
            observer.sent(channel);
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    @Override
    public void sendFailed(String channel) {
        try {
            observer.sendFailed(channel);
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    @Override
    public void rateLimited(String channel) {
        try {
            observer.rateLimited(channel);
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    @Override
    public void agentRetried(String agent) {
        try {
            observer.agentRetried(agent);
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    @Override
    public void emptyAnswer(String agent) {
        try {
            observer.emptyAnswer(agent);
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    @Override
    public void fallback(String from, String to, String reason) {
        try {
            observer.fallback(from, to, reason);
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    // each call is guarded in place, not through a lambda: these run several times per run
    private static void failed(RuntimeException e) {
        log.warn("metrics observer failed", e);
    }
}
