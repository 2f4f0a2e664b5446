package dev.laneway.channels.slack;

import com.slack.api.socket_mode.SocketModeClient;
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
 * The backoff doubles per attempt up to {@code maxBackoff} and resets on Slack's {@code hello}.
 * A close that the SDK's own switch-over causes finds the new connection alive and does nothing.
 *
 * <p>Concurrency: every check runs on the single {@code timer} thread, so this class never starts
 * two reconnects at once; {@code checkScheduled} coalesces bursts of close/error callbacks into
 * one check; {@code backoff}, {@code up} and {@code stopped} are volatile because SDK threads read them.
 */
final class ConnectionKeeper {

    private static final Logger log = LoggerFactory.getLogger(ConnectionKeeper.class);

    private final SocketModeClient client;
    private final ScheduledExecutorService timer;
    private final Duration initialBackoff;
    private final Duration maxBackoff;
    private final AtomicBoolean checkScheduled = new AtomicBoolean();
    private volatile Duration backoff;
    private volatile boolean up;
    private volatile boolean stopped;

    ConnectionKeeper(SocketModeClient client, ScheduledExecutorService timer, Duration initialBackoff,
                     Duration maxBackoff) {
        this.client = client;
        this.timer = timer;
        this.initialBackoff = initialBackoff;
        this.maxBackoff = maxBackoff;
        this.backoff = initialBackoff;
    }

    /** Slack said hello on a connection: it is healthy, so the next drop starts a fresh backoff. */
    void connected() {
        up = true;
        backoff = initialBackoff;
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
        Duration delay = backoff;
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
        Duration next = backoff.multipliedBy(2);
        backoff = next.compareTo(maxBackoff) > 0 ? maxBackoff : next;
        try {
            log.info("Slack Socket Mode connection lost; reconnecting through apps.connections.open");
            client.connectToNewEndpoint();
        } catch (Exception | LinkageError e) {
            log.warn("Slack Socket Mode reconnect failed ({}); next try in {} ms", e.getMessage(), backoff.toMillis());
            dropped();
        }
    }
}
