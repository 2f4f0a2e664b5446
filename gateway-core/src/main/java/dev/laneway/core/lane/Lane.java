package dev.laneway.core.lane;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A named FIFO with a concurrency cap. {@link #acquire()} never blocks: it hands back a future
 * permit, completed at once when a slot is free, else when an earlier holder closes its permit.
 *
 * <p>Concurrency: {@code lock} guards {@code active}, {@code waiters} and {@code retired}. Futures
 * are completed outside the lock, so a waiter's continuation never runs while the lane is locked.
 * A waiter whose future was cancelled is skipped; a slot is handed straight to the next waiter
 * (so {@code active} does not dip and no newcomer can overtake the queue).
 */
public final class Lane {

    private static final Logger log = LoggerFactory.getLogger(Lane.class);

    private final String name;
    private final int cap;
    private final InstantSource clock;
    private final Duration warnAfter;
    private final Consumer<Lane> onIdle;
    private final BiConsumer<String, Duration> waitObserver;
    private final ReentrantLock lock = new ReentrantLock();
    private int active;                                     // guarded by lock
    // guarded by lock; FIFO. Small at first: most lanes (a session's) never have a waiter
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>(2);
    private boolean retired;                                // guarded by lock; see Lanes

    /** @param onIdle called (outside the lock) whenever the last slot is given back with nobody waiting */
    Lane(String name, int cap, InstantSource clock, Duration warnAfter, Consumer<Lane> onIdle,
         BiConsumer<String, Duration> waitObserver) {
        if (cap < 1) {
            throw new IllegalArgumentException("lane " + name + ": cap must be >= 1, got " + cap);
        }
        this.name = name;
        this.cap = cap;
        this.clock = clock;
        this.warnAfter = warnAfter;
        this.onIdle = onIdle;
        this.waitObserver = waitObserver;
    }

    public String name() {
        return name;
    }

    public int cap() {
        return cap;
    }

    /**
     * Asks for a slot. Cancelling the returned future before it completes withdraws the request;
     * returns null when the lane was retired (the caller asks {@link Lanes} again).
     */
    CompletableFuture<LanePermit> tryAcquire() {
        lock.lock();
        try {
            if (retired) {
                return null;
            }
            if (active < cap && waiters.isEmpty()) {
                active++;
                waitObserver.accept(name, Duration.ZERO);
                return CompletableFuture.completedFuture(new Permit());
            }
            Waiter waiter = new Waiter(new CompletableFuture<>(), clock.instant(), waiters.size());
            waiters.addLast(waiter);
            waiter.future.whenComplete((permit, error) -> {
                if (waiter.future.isCancelled()) {
                    withdraw(waiter);
                }
            });
            return waiter.future;
        } finally {
            lock.unlock();
        }
    }

    /**
     * A slot now, without a future: a permit when a slot is free and nobody waits, else null (the
     * lane is full, has waiters, or was retired: the caller then asks through {@link #tryAcquire}).
     */
    LanePermit acquireIfFree() {
        lock.lock();
        try {
            if (retired || active >= cap || !waiters.isEmpty()) {
                return null;
            }
            active++;
        } finally {
            lock.unlock();
        }
        waitObserver.accept(name, Duration.ZERO);
        return new Permit();
    }

    private void withdraw(Waiter waiter) {
        lock.lock();
        try {
            waiters.remove(waiter);
        } finally {
            lock.unlock();
        }
    }

    private void release() {
        while (true) {
            Waiter next;
            boolean idle = false;
            lock.lock();
            try {
                next = waiters.pollFirst();
                if (next == null) {
                    active--;
                    idle = active == 0;
                }
            } finally {
                lock.unlock();
            }
            if (next == null) {
                if (idle) {
                    onIdle.accept(this);
                }
                return;
            }
            Permit permit = new Permit();
            if (next.future.complete(permit)) {
                warnIfWaitedLong(next);
                return;
            }
            // cancelled between poll and complete: hand the slot to the next waiter instead
        }
    }

    private void warnIfWaitedLong(Waiter waiter) {
        Duration waited = Duration.between(waiter.enqueuedAt, clock.instant());
        waitObserver.accept(name, waited);
        long waitedMs = waited.toMillis();
        if (waitedMs > warnAfter.toMillis()) {
            log.warn("lane wait exceeded: lane={} waitedMs={} queuedAhead={}", name, waitedMs, waiter.queuedAhead);
        }
    }

    /** Retires the lane if it is unused; a retired lane accepts no new requests. */
    boolean retireIfIdle() {
        lock.lock();
        try {
            if (active == 0 && waiters.isEmpty()) {
                retired = true;
            }
            return retired;
        } finally {
            lock.unlock();
        }
    }

    public LaneSnapshot snapshot() {
        lock.lock();
        try {
            return new LaneSnapshot(name, cap, active, waiters.size());
        } finally {
            lock.unlock();
        }
    }

    private record Waiter(CompletableFuture<LanePermit> future, Instant enqueuedAt, int queuedAhead) {
    }

    private final class Permit implements LanePermit {
        private static final AtomicIntegerFieldUpdater<Permit> CLOSED =
                AtomicIntegerFieldUpdater.newUpdater(Permit.class, "closed");
        private volatile int closed; // 1 once closed; a field, not an AtomicBoolean: two permits per run

        @Override
        public String lane() {
            return name;
        }

        @Override
        public void close() {
            if (CLOSED.compareAndSet(this, 0, 1)) {
                release();
            }
        }
    }
}
