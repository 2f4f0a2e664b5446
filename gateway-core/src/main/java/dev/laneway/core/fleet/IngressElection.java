package dev.laneway.core.fleet;

import dev.laneway.core.SessionKey;
import dev.laneway.core.time.Scheduler;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Who takes a platform's updates in a fleet (docs/behaviour.md §17, "Ingress"): {@code n} ingress
 * connections (Telegram's one poller, Discord's shards), each held by at most one instance through
 * a lease of the fleet ({@code keys[i]}, a session lease: renewed by the instance's heartbeat,
 * expiring after its ttl, fenced; D173, D220). At start and then every {@code checkEvery} an
 * instance reads the fleet's {@link Standing}: its share is {@code ceil(n / live instances)}.
 * <ul>
 *   <li>It takes free connections (lowest index first) up to its share.
 *   <li>Above its share it takes one more only when nobody has taken it for a whole check (an
 *       orphan: the others are at their share, or stopping while still counted live), so no
 *       connection stays unheld while some instance could hold it.
 *   <li>It gives back one a check above its share, but only one it took when fewer instances were
 *       live than now (a newcomer needs it): one taken as an orphan is kept while the count stays
 *       the same, so a stopping instance's connection does not go back and forth.
 * </ul>
 * A dead holder's leases expire (its heartbeat first, so the live count already dropped) and are
 * taken at another instance's next check: a connection moves within the ttl plus one check. A
 * lost lease stops its connection at once; {@link #stop} stops every connection held here and
 * releases its lease at once (SIGTERM hands them over).
 *
 * <p>Concurrency: {@code lock} guards {@code held}, {@code check} and {@code stopped}, and every
 * {@link Connections#open}/{@link Connections#close}; checks run on {@code executor} (they block for
 * round trips to Redis), a loss is handed to {@code executor} too (the heartbeat's thread must not
 * block). A check holds the lock across its round trips and the connections it opens; the lock is
 * this election's alone, so only a concurrent {@link #stop} or loss waits for it. Lock order: this
 * lock, then whatever the channel's {@link Connections} take.
 */
public final class IngressElection {

    /** What the election opens and closes: connection {@code i} of the platform's {@code n}. */
    public interface Connections {
        void open(int index) throws Exception;

        /** Closes connection {@code index}, leaving what it did not take on the platform. */
        void close(int index);
    }

    /** What a check reads of the fleet (round trips to Redis are allowed; a failure skips the check). */
    public interface Standing {
        /** The live instances, this one included. */
        int liveInstances();

        /** Whether any instance holds {@code key}'s lease now. */
        boolean held(SessionKey key);

        /**
         * One connection ({@code n} = 1): the share is always 1, so the instance holding it is never
         * above it and nothing needs asking.
         */
        Standing SINGLE = new Standing() {
            @Override
            public int liveInstances() {
                return 1;
            }

            @Override
            public boolean held(SessionKey key) {
                return true;
            }
        };
    }

    /** What the election tells its channel, which logs it in its own words. */
    public interface Events {
        void taken(int index, Lease lease);

        /** Given back on purpose: at {@link #stop}, or above this instance's share. */
        void gaveUp(int index, boolean stopping);

        void lost(int index, Lease lease);

        void couldNotAsk(RuntimeException e, Duration checkEvery);

        void couldNotOpen(int index, Exception e);

        void couldNotRelease(int index, RuntimeException e);
    }

    private final SessionLeases leases;
    private final List<SessionKey> keys;
    private final Scheduler timer;
    private final Executor executor;
    private final Duration checkEvery;
    private final Connections connections;
    private final Standing standing;
    private final Events events;
    private final ReentrantLock lock = new ReentrantLock();
    private final Lease[] held;               // guarded by lock; held[i] non-null while connection i is open here
    private final int[] takenWithLive;        // guarded by lock; the fewest live instances seen since held[i] was taken
    private final boolean[] freeLastCheck;    // guarded by lock; nobody held i at the last check
    private Scheduler.Cancellable check = Scheduler.Cancellable.NONE; // guarded by lock
    private boolean stopped;                  // guarded by lock

    public IngressElection(SessionLeases leases, List<SessionKey> keys, Scheduler timer, Executor executor,
                           Duration checkEvery, Connections connections, Standing standing, Events events) {
        this.leases = Objects.requireNonNull(leases, "leases");
        this.keys = List.copyOf(keys);
        if (this.keys.isEmpty()) {
            throw new IllegalArgumentException("an ingress election needs at least one key");
        }
        this.timer = Objects.requireNonNull(timer, "timer");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.checkEvery = Objects.requireNonNull(checkEvery, "checkEvery");
        this.connections = Objects.requireNonNull(connections, "connections");
        this.standing = Objects.requireNonNull(standing, "standing");
        this.events = Objects.requireNonNull(events, "events");
        this.held = new Lease[this.keys.size()];
        this.takenWithLive = new int[this.keys.size()];
        this.freeLastCheck = new boolean[this.keys.size()];
    }

    /**
     * The first 16 hex digits of the SHA-256 of a platform token: how an ingress lease names its bot
     * without the token ever reaching Redis (D173).
     */
    public static String tokenHash(String token) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JVM", e);
        }
    }

    public List<SessionKey> keys() {
        return keys;
    }

    /** The first check, now (on the caller's thread: the start knows at once what it holds), then every checkEvery. */
    public void start() {
        checkNow();
    }

    /** The indexes held here now, in order. */
    public List<Integer> heldHere() {
        lock.lock();
        try {
            List<Integer> here = new ArrayList<>();
            for (int i = 0; i < held.length; i++) {
                if (held[i] != null) {
                    here.add(i);
                }
            }
            return here;
        } finally {
            lock.unlock();
        }
    }

    /** Stops checking, closes every connection held here and releases its lease at once; idempotent. */
    public void stop() {
        lock.lock();
        try {
            if (stopped) {
                return;
            }
            stopped = true;
            check.cancel();
            for (int i = held.length - 1; i >= 0; i--) {
                if (held[i] != null) {
                    giveBackLocked(i, true);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private void checkNow() {
        lock.lock();
        try {
            if (stopped) {
                return;
            }
            try {
                balanceLocked();
            } catch (RuntimeException e) {
                events.couldNotAsk(e, checkEvery);
            }
            check = timer.schedule(checkEvery, () -> executor.execute(this::checkNow));
        } finally {
            lock.unlock();
        }
    }

    /** Gives back one above the share that a newcomer needs, or takes free ones up to it (and orphans beyond). */
    private void balanceLocked() {
        int live = held.length == 1 ? 1 : Math.max(1, standing.liveInstances());
        int share = (held.length + live - 1) / live;
        int count = 0;
        for (int i = 0; i < held.length; i++) {
            if (held[i] != null) {
                takenWithLive[i] = Math.min(takenWithLive[i], live);
                count++;
            }
        }
        if (count > share) {
            for (int i = held.length - 1; i >= 0; i--) {
                if (held[i] != null && live > takenWithLive[i]) {
                    giveBackLocked(i, false);   // one a check: the newcomers take it at theirs
                    return;
                }
            }
        }
        for (int i = 0; i < held.length; i++) {
            if (held[i] != null) {
                freeLastCheck[i] = false;
                continue;
            }
            boolean orphan = false;
            if (count >= share) {
                boolean free = !standing.held(keys.get(i));
                orphan = free && freeLastCheck[i];
                freeLastCheck[i] = free;
                if (!orphan) {
                    continue;
                }
            }
            if (tryToTakeLocked(i, live)) {
                count++;
            }
            freeLastCheck[i] = false;   // taken now, or another instance has it
        }
    }

    private boolean tryToTakeLocked(int index, int live) {
        Optional<Lease> taken = leases.tryAcquire(keys.get(index), gone -> lost(index, gone));
        if (taken.isEmpty()) {
            return false;   // another instance holds it
        }
        try {
            connections.open(index);
            held[index] = taken.get();
            takenWithLive[index] = live;
            events.taken(index, taken.get());
            return true;
        } catch (Exception e) {
            events.couldNotOpen(index, e);
            release(index, taken.get());
            return false;
        }
    }

    private void giveBackLocked(int index, boolean stopping) {
        Lease lease = held[index];
        held[index] = null;
        connections.close(index);
        if (release(index, lease)) {
            events.gaveUp(index, stopping);
        }
    }

    /** Whether the lease went back; if not, it expires by itself after the ttl. */
    private boolean release(int index, Lease lease) {
        try {
            leases.release(lease);
            return true;
        } catch (RuntimeException e) {
            events.couldNotRelease(index, e);
            return false;
        }
    }

    /** The heartbeat's thread: hand over, never block it. */
    private void lost(int index, Lease gone) {
        executor.execute(() -> {
            lock.lock();
            try {
                Lease lease = held[index];
                if (lease == null || lease.token() != gone.token()) {
                    return;
                }
                held[index] = null;
                connections.close(index);
                events.lost(index, gone);
            } finally {
                lock.unlock();
            }
        });
    }
}
