package dev.laneway.channels.slack;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Acknowledges Socket Mode envelopes. Slack never redelivers an envelope once it is acknowledged,
 * so one that carries a message is acknowledged only when the gateway is done with it (stored
 * durably, answered or ignored: {@link Receipt#confirm}), and a crash before that makes Slack
 * deliver it again. Slack retries what is not acknowledged within three seconds, so a receipt
 * still open at {@code deadline} (a slow store or {@code users.info} lookup) is acknowledged then
 * anyway, with a WARN line. Every other envelope is acknowledged at once ({@link #now}).
 *
 * <p>Concurrency: a receipt acknowledges at most once (an atomic flag), whichever of the hand-over
 * thread and the timer comes first; sending an ack is thread-safe (the SDK's socket send).
 */
final class EnvelopeAcks {

    private static final Logger log = LoggerFactory.getLogger(EnvelopeAcks.class);

    private final Consumer<String> send;
    private final ScheduledExecutorService timer;
    private final Duration deadline;

    /**
     * @param send     sends {@code {"envelope_id": ...}} on the socket
     * @param timer    runs the deadlines
     * @param deadline how long a receipt may stay open (under Slack's three seconds)
     */
    EnvelopeAcks(Consumer<String> send, ScheduledExecutorService timer, Duration deadline) {
        this.send = send;
        this.timer = timer;
        this.deadline = deadline;
    }

    /** Acknowledges an envelope now. */
    void now(String envelopeId) {
        if (envelopeId == null) {
            return;
        }
        try {
            send.accept(envelopeId);
        } catch (RuntimeException e) {
            // the socket closed under us: Slack will redeliver, and the event id dedupe catches it
            log.warn("could not acknowledge Slack envelope {}: {}", envelopeId, e.toString());
        }
    }

    /** A receipt for an envelope whose message is on its way to the gateway; acknowledged at the latest at the deadline. */
    Receipt open(String envelopeId) {
        if (envelopeId == null) {
            return Receipt.NONE;
        }
        Pending pending = new Pending(envelopeId);
        try {
            pending.timeout = timer.schedule(pending::late, deadline.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            // no timer (the channel is stopping): acknowledged when the hand-over ends, or never
            log.debug("no deadline for Slack envelope {}: {}", envelopeId, e.toString());
        }
        return pending;
    }

    /** One envelope's acknowledgement, owed once its message is stored, answered or ignored. */
    interface Receipt {

        /** Nothing to acknowledge (done already, or the envelope had no id). */
        Receipt NONE = () -> { };

        /** The gateway is done with the message: acknowledges the envelope (once). */
        void confirm();
    }

    private final class Pending implements Receipt {
        private final String envelopeId;
        private final AtomicBoolean acked = new AtomicBoolean();
        private volatile ScheduledFuture<?> timeout;

        Pending(String envelopeId) {
            this.envelopeId = envelopeId;
        }

        @Override
        public void confirm() {
            if (acked.compareAndSet(false, true)) {
                ScheduledFuture<?> pendingTimeout = timeout;
                if (pendingTimeout != null) {
                    pendingTimeout.cancel(false);
                }
                now(envelopeId);
            }
        }

        private void late() {
            if (acked.compareAndSet(false, true)) {
                log.warn("Slack envelope {} acknowledged after {} ms before its message was stored (the store or a"
                        + " users.info lookup is slow; Slack allows 3 s): a crash before the store finishes loses it",
                        envelopeId, deadline.toMillis());
                now(envelopeId);
            }
        }
    }
}
