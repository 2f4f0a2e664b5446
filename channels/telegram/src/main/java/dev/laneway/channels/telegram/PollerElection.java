package dev.laneway.channels.telegram;

import dev.laneway.core.SessionKey;
import dev.laneway.core.fleet.Lease;
import dev.laneway.core.fleet.SessionLeases;
import dev.laneway.core.time.Scheduler;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exactly one poller per bot token in a fleet (docs/behaviour.md §17, "Ingress"): the instance
 * that holds the lease {@code ingress:telegram:<sha-256 of the token, 16 hex>} polls; the others
 * try to take it every {@code checkEvery}. The lease is the fleet's session lease (renewed by the
 * instance's heartbeat, expiring after its ttl, fenced), keyed by a hash so the token never
 * reaches Redis. When the poller dies its lease expires and another instance takes it at its next
 * check: polling moves within the lease ttl plus one check. A lost lease stops polling at once; a
 * clean stop releases the lease, so the next check elsewhere takes it.
 *
 * <p>Concurrency: {@code lock} guards {@code lease}, {@code check}, {@code stopped} and the
 * start and stop of polling through {@link Poller}; checks run on {@code executor} (they block for
 * a round trip to Redis), a loss is handed to {@code executor} too (the heartbeat's thread must not
 * block). A check never runs under another's feet: each holds the lock, across its round trip to
 * Redis and the start of polling; the lock is this election's alone, so only a concurrent
 * {@link #stop} waits for it. Lock order: this lock, then the channel's lifecycle lock.
 */
final class PollerElection {

    /** What the election starts and stops: the channel's long polling. */
    interface Poller {
        void startPolling() throws Exception;

        /** Stops polling, leaving what was not handed over on Telegram's server. */
        void stopPolling();
    }

    private static final Logger log = LoggerFactory.getLogger(PollerElection.class);

    private final SessionLeases leases;
    private final SessionKey key;
    private final Scheduler timer;
    private final Executor executor;
    private final Duration checkEvery;
    private final Poller poller;
    private final ReentrantLock lock = new ReentrantLock();
    private Lease lease;                      // guarded by lock; non-null while this instance polls
    private Scheduler.Cancellable check = Scheduler.Cancellable.NONE; // guarded by lock
    private boolean stopped;                  // guarded by lock

    PollerElection(SessionLeases leases, String token, Scheduler timer, Executor executor, Duration checkEvery,
                   Poller poller) {
        this.leases = Objects.requireNonNull(leases, "leases");
        this.key = keyFor(token);
        this.timer = Objects.requireNonNull(timer, "timer");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.checkEvery = Objects.requireNonNull(checkEvery, "checkEvery");
        this.poller = Objects.requireNonNull(poller, "poller");
    }

    /** {@code ingress:telegram:} and the first 16 hex digits of the token's SHA-256: never the token. */
    static SessionKey keyFor(String token) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
            return SessionKey.of("ingress:telegram:" + HexFormat.of().formatHex(digest, 0, 8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JVM", e);
        }
    }

    SessionKey key() {
        return key;
    }

    /** The first check, now (on the caller's thread: the start knows at once whether it polls), then every checkEvery. */
    void start() {
        checkNow();
    }

    boolean polling() {
        lock.lock();
        try {
            return lease != null;
        } finally {
            lock.unlock();
        }
    }

    /** Stops checking, stops polling if this instance polls, and releases the lease at once (SIGTERM hands it over). */
    void stop() {
        Lease held;
        lock.lock();
        try {
            if (stopped) {
                return;
            }
            stopped = true;
            check.cancel();
            held = lease;
            lease = null;
            if (held != null) {
                poller.stopPolling();
            }
        } finally {
            lock.unlock();
        }
        if (held != null) {
            try {
                leases.release(held);
                log.info("telegram: gave up polling for the fleet; another instance takes it at its next check");
            } catch (RuntimeException e) {
                log.warn("telegram: could not release the poller's lease ({}); it expires by itself", e.getMessage());
            }
        }
    }

    private void checkNow() {
        lock.lock();
        try {
            if (stopped) {
                return;
            }
            if (lease == null) {
                tryToPollLocked();
            }
            check = timer.schedule(checkEvery, () -> executor.execute(this::checkNow));
        } finally {
            lock.unlock();
        }
    }

    private void tryToPollLocked() {
        Optional<Lease> taken;
        try {
            taken = leases.tryAcquire(key, this::lost);
        } catch (RuntimeException e) {
            log.warn("telegram: could not ask the fleet who polls ({}); asked again in {} ms", e.getMessage(),
                    checkEvery.toMillis());
            return;
        }
        if (taken.isEmpty()) {
            return;   // another instance polls
        }
        try {
            poller.startPolling();
            lease = taken.get();
            log.info("telegram: this instance polls for the fleet (lease {}, fencing token {})", key.value(),
                    taken.get().token());
        } catch (Exception e) {
            log.warn("telegram: could not start polling ({}); the lease is given back and taken again later",
                    e.getMessage());
            leases.release(taken.get());
        }
    }

    /** The heartbeat's thread: hand over, never block it. */
    private void lost(Lease gone) {
        executor.execute(() -> {
            lock.lock();
            try {
                if (lease == null || lease.token() != gone.token()) {
                    return;
                }
                lease = null;
                poller.stopPolling();
                log.warn("telegram: lost the poller's lease (fencing token {}); polling stopped here, another"
                        + " instance polls", gone.token());
            } finally {
                lock.unlock();
            }
        });
    }
}
