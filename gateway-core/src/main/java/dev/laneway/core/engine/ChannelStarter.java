package dev.laneway.core.engine;

import dev.laneway.core.channel.Backoff;
import dev.laneway.core.channel.ChannelAdapter;
import dev.laneway.core.channel.InboundSink;
import dev.laneway.core.time.Scheduler;
import dev.laneway.core.time.Scheduler.Cancellable;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the gateway's channels and keeps trying the ones that fail: a network error at boot
 * (Telegram getMe, Discord login, Slack auth.test) must not silence a bot until the next restart.
 * A failed start is retried in the background after 1 s, doubling up to 60 s, with one log line
 * per failure (the adapter's exception message, never a token: adapters word their own errors).
 * Until a channel has started, the {@link Outbox} holds its replies; they go out, in order, once it
 * has.
 *
 * <p>Concurrency: {@code lock} guards {@code started}, {@code retries} and {@code stopped}. The
 * first attempt runs on the caller of {@link #startAll}; retries are scheduled on the
 * {@link Scheduler} and run on the executor (a start may block on the network, timers must not).
 * {@code ChannelAdapter.start} and {@code stop} are called outside the lock; a start that succeeds
 * after {@link #stopAll} is stopped again at once.
 *
 * <p>Whatever a start throws (an {@link Error} from an SDK too: an AssertionError, a
 * NoClassDefFoundError) counts as a failed start and is retried; the other channels start regardless.
 * A fatal error ({@link VirtualMachineError}) is not swallowed: it is rethrown once the failing
 * channel's next attempt is scheduled and, for {@link #startAll} and {@link #stopAll}, once every
 * other channel was tried.
 */
final class ChannelStarter {

    private static final Logger log = LoggerFactory.getLogger(ChannelStarter.class);

    static final Duration FIRST_RETRY = Duration.ofSeconds(1);
    static final Duration MAX_RETRY = Duration.ofSeconds(60);
    private static final Backoff RETRY = Backoff.exponential(FIRST_RETRY, MAX_RETRY);

    private final Map<String, ChannelAdapter> channels;
    private final Outbox outbox;
    private final Scheduler scheduler;
    private final Executor executor;
    private final ReentrantLock lock = new ReentrantLock();
    // names of the channels that have started; guarded by lock
    private final Set<String> started = new HashSet<>();
    // channel name -> its scheduled next attempt; guarded by lock
    private final Map<String, Cancellable> retries = new HashMap<>();
    private boolean stopped; // guarded by lock

    ChannelStarter(Map<String, ChannelAdapter> channels, Outbox outbox, Scheduler scheduler, Executor executor) {
        this.channels = channels;
        this.outbox = outbox;
        this.scheduler = scheduler;
        this.executor = executor;
    }

    /** Holds every channel's replies until it has started; call before anything can be sent. */
    void holdAll() {
        channels.keySet().forEach(outbox::hold);
    }

    /** Tries each channel once now; those that fail are retried in the background. */
    void startAll(InboundSink sink) {
        VirtualMachineError fatal = null;
        for (ChannelAdapter channel : channels.values()) {
            try {
                attempt(channel, sink, 1);
            } catch (VirtualMachineError e) {
                fatal = fatal == null ? e : fatal; // its retry is scheduled; the others start first
            }
        }
        if (fatal != null) {
            throw fatal;
        }
    }

    /** Whether the channel has started (false while it is failing and being retried). */
    boolean started(String channel) {
        lock.lock();
        try {
            return started.contains(channel);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Asks every channel to stop fetching messages (shutdown, first step); sending goes on. Whatever
     * one throws is logged and the others are asked regardless (a fatal error is rethrown after).
     */
    void stopReceivingAll() {
        VirtualMachineError fatal = null;
        for (ChannelAdapter channel : channels.values()) {
            try {
                channel.stopReceiving();
            } catch (Throwable e) {
                log.warn("channel {} failed to stop receiving cleanly: {}", channel.name(), e.toString());
                if (e instanceof VirtualMachineError error) {
                    fatal = fatal == null ? error : fatal;
                }
            }
        }
        if (fatal != null) {
            throw fatal;
        }
    }

    /** Cancels pending retries and stops every channel; idempotent. */
    void stopAll() {
        lock.lock();
        try {
            stopped = true;
            retries.values().forEach(Cancellable::cancel);
            retries.clear();
        } finally {
            lock.unlock();
        }
        VirtualMachineError fatal = null;
        for (ChannelAdapter channel : channels.values()) {
            try {
                stop(channel);
            } catch (VirtualMachineError e) {
                fatal = fatal == null ? e : fatal; // the others are stopped first
            }
        }
        if (fatal != null) {
            throw fatal;
        }
    }

    private void attempt(ChannelAdapter channel, InboundSink sink, int attempt) {
        lock.lock();
        try {
            retries.remove(channel.name());
            if (stopped) {
                return;
            }
        } finally {
            lock.unlock();
        }
        try {
            channel.start(sink);
        } catch (Throwable e) {
            failed(channel, sink, attempt, e); // schedules the next attempt
            Fatal.rethrowIfFatal(e);
            return;
        }
        boolean late;
        lock.lock();
        try {
            late = stopped;
            if (!late) {
                started.add(channel.name());
            }
        } finally {
            lock.unlock();
        }
        if (late) {
            stop(channel); // the gateway stopped while this start was under way
            return;
        }
        log.info("channel {} started{}", channel.name(), attempt == 1 ? "" : " (attempt " + attempt + ")");
        outbox.release(channel.name());
    }

    private void failed(ChannelAdapter channel, InboundSink sink, int attempt, Throwable e) {
        Duration delay = backoff(attempt);
        boolean retrying;
        lock.lock();
        try {
            retrying = !stopped;
            if (retrying) {
                retries.put(channel.name(), scheduler.schedule(delay,
                        () -> executor.execute(() -> attempt(channel, sink, attempt + 1))));
            }
        } finally {
            lock.unlock();
        }
        if (retrying) {
            log.error("channel {} failed to start (attempt {}): {}; retrying in {} s, its replies are held until then",
                    channel.name(), attempt, e.toString(), delay.toSeconds());
        } else {
            log.warn("channel {} failed to start (attempt {}): {}; not retrying, the gateway is stopping",
                    channel.name(), attempt, e.toString());
        }
    }

    /**
     * 1 s after the first failure, doubling, at most 60 s: the shared backoff's nominal waits (one
     * start per channel at a time has nobody to spread out from).
     */
    static Duration backoff(int failedAttempts) {
        return RETRY.nominal(failedAttempts);
    }

    /** Stops a channel; whatever it throws is logged (a fatal error is rethrown after that). */
    private static void stop(ChannelAdapter channel) {
        try {
            channel.stop();
        } catch (Throwable e) {
            log.warn("channel {} failed to stop cleanly: {}", channel.name(), e.toString());
            Fatal.rethrowIfFatal(e);
        }
    }
}
