package dev.laneway.channels.slack;

import com.slack.api.socket_mode.SocketModeClient;
import dev.laneway.core.channel.Backoff;
import dev.laneway.core.channel.Redactor;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the Socket Mode connection up. The SDK handles a {@code disconnect} envelope itself
 * (it asks {@code apps.connections.open} for a new URL and switches over); this class covers a
 * socket that drops or fails to connect: a close or error schedules one check after a backoff,
 * and a check that finds no live connection reconnects through {@code apps.connections.open}.
 * The waits are the shared {@link Backoff}'s (doubling, with jitter) and start again on Slack's
 * {@code hello}.
 * A close that the SDK's own switch-over causes finds the new connection alive and does nothing.
 *
 * <p>Concurrency: every check runs on the single {@code timer} thread, so this class never starts
 * two reconnects at once; {@code checkScheduled} coalesces bursts of close/error callbacks into
 * one check; {@code failures}, {@code up} and {@code stopped} are volatile because SDK threads read them.
 */
final class ConnectionKeeper {

    private static final Logger log = LoggerFactory.getLogger(ConnectionKeeper.class);

    private final SocketModeClient client;
    private final ScheduledExecutorService timer;
    private final Backoff backoff;
    private final Redactor redactor;
    private final AtomicBoolean checkScheduled = new AtomicBoolean();
    private volatile int failures;     // reconnects that failed since the last hello; written on the timer thread
    private volatile boolean up;
    private volatile boolean stopped;

    ConnectionKeeper(SocketModeClient client, ScheduledExecutorService timer, Backoff backoff, Redactor redactor) {
        this.client = client;
        this.timer = timer;
        this.backoff = backoff;
        this.redactor = redactor;
    }

    /** Slack said hello on a connection: it is healthy, so the next drop starts a fresh backoff. */
    void connected() {
        up = true;
        failures = 0;
    }

    /** Whether the last word from the socket was good (hello, or a check that found it alive). */
    boolean isUp() {
        return up && !stopped;
    }

    /** The socket closed or failed: check (and reconnect if needed) after the current backoff. */
    void dropped() {
        up = false;
        if (stopped || !checkScheduled.compareAndSet(false, true)) {
            return;
        }
        Duration delay = backoff.delay(failures + 1);
        try {
            timer.schedule(this::check, delay.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            checkScheduled.set(false);
            if (!stopped) {
                log.warn("could not schedule a Slack reconnect check: {}", e.toString());
            }
        }
    }

    void stop() {
        stopped = true;
        timer.shutdownNow();
    }

    private void check() {
        checkScheduled.set(false);
        if (stopped) {
            return;
        }
        if (client.verifyConnection()) {
            up = true;
            return;
        }
        failures++;
        try {
            log.info("Slack Socket Mode connection lost; reconnecting through apps.connections.open");
            client.connectToNewEndpoint();
        } catch (Exception | LinkageError e) {
            log.warn("Slack Socket Mode reconnect failed ({}); next try in about {} ms",
                    redactor.redact(String.valueOf(e.getMessage())), backoff.nominal(failures + 1).toMillis());
            dropped();
        }
    }
}
