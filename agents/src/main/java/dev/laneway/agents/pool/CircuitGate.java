package dev.laneway.agents.pool;

import dev.laneway.core.agent.settings.ProviderSettings;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import java.time.Duration;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A pool's circuit breaker (docs/behaviour.md §14.4, docs/decisions.md D62): resilience4j's
 * {@link CircuitBreaker} on the pool's clock, with a time-based window. It opens once the window
 * holds at least {@code failures} calls and half or more of them failed (5xx, timeouts, connection
 * errors); while open nothing is let through; after {@code openFor} the next call is let through as
 * the one probe (half-open): its success closes the breaker, its failure opens it again. 429s and
 * answers that say nothing about the endpoint's health (a 400, an abort) are neither. With
 * {@code failures: 0} it always lets calls through.
 *
 * <p>Every permission {@link #tryAcquire} gave must end in exactly one of {@link #succeeded},
 * {@link #failed} or {@link #released}: the pool's lease sees to it. Thread-safe (resilience4j's
 * breaker is).
 */
final class CircuitGate {

    /** The breaker's state as {@code /status} and the metrics name it. */
    enum State {
        CLOSED, OPEN, HALF_OPEN;

        String id() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    private final CircuitBreaker breaker;

    CircuitGate(String pool, ProviderSettings.Circuit circuit, InstantSource clock, Consumer<State> onTransition) {
        if (!circuit.enabled()) {
            breaker = null;
            return;
        }
        CircuitBreakerConfig config = CircuitBreakerConfig.custom()
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.TIME_BASED)
                // the lock-free window reads the system clock; the synchronized one reads the one given below
                .slidingWindowSynchronizationStrategy(
                        CircuitBreakerConfig.SlidingWindowSynchronizationStrategy.SYNCHRONIZED)
                .slidingWindowSize((int) Math.max(1, circuit.window().toSeconds()))
                .minimumNumberOfCalls(circuit.failures())
                .failureRateThreshold(50)
                .waitDurationInOpenState(circuit.openFor())
                .permittedNumberOfCallsInHalfOpenState(1)
                .automaticTransitionFromOpenToHalfOpenEnabled(false)
                .clock(clock.withZone(ZoneOffset.UTC))
                .currentTimestampFunction(c -> c.millis(), TimeUnit.MILLISECONDS)
                .recordException(e -> true)
                .build();
        breaker = CircuitBreaker.of(pool, config);
        breaker.getEventPublisher().onStateTransition(event -> onTransition.accept(of(event.getStateTransition().getToState())));
    }

    private static State of(CircuitBreaker.State state) {
        return switch (state) {
            case OPEN, FORCED_OPEN -> State.OPEN;
            case HALF_OPEN -> State.HALF_OPEN;
            default -> State.CLOSED;
        };
    }

    State state() {
        return breaker == null ? State.CLOSED : of(breaker.getState());
    }

    /** Whether a call may go out now; true takes a permission that must be ended. */
    boolean tryAcquire() {
        return breaker == null || breaker.tryAcquirePermission();
    }

    /**
     * Open and not yet due for its probe: a run fails at once instead of waiting for a permit. Takes
     * no permission.
     */
    boolean refusesNow() {
        if (breaker == null || breaker.getState() != CircuitBreaker.State.OPEN) {
            return false;
        }
        if (!breaker.tryAcquirePermission()) {
            return true;
        }
        breaker.releasePermission(); // due for its probe: the run waits and asks again when granted
        return false;
    }

    void succeeded(Duration took) {
        if (breaker != null) {
            breaker.onSuccess(took.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    void failed(Duration took) {
        if (breaker != null) {
            breaker.onError(took.toMillis(), TimeUnit.MILLISECONDS, ProviderFailure.INSTANCE);
        }
    }

    void released() {
        if (breaker != null) {
            breaker.releasePermission();
        }
    }

    /** What the breaker records as the failure (no stack trace: it is a count, not an error). */
    private static final class ProviderFailure extends RuntimeException {
        private static final ProviderFailure INSTANCE = new ProviderFailure();

        private ProviderFailure() {
            super("the model provider failed", null, false, false);
        }
    }
}
